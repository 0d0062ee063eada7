import os
os.makedirs(os.path.dirname('a23lib/temps2.py') or '.', exist_ok=True)
open('a23lib/temps2.py', 'w').write('"""Temperature conversions; the public ones are registered with @export."""\n\n__all__ = []\n\n\ndef export(fn):\n    """Add fn to the module\'s public names."""\n    __all__.append(fn.__name__)\n    return fn\n\n\n@export\ndef to_celsius(f):\n    """Fahrenheit to Celsius.\n\n    >>> to_celsius(212)\n    100.0\n    >>> to_celsius(32)\n    0.0\n    """\n    return (f - 32) * 5 / 9\n\n\n@export\ndef to_fahrenheit(c):\n    """Celsius to Fahrenheit.\n\n    >>> to_fahrenheit(100)\n    212.0\n    """\n    return c * 9 / 5 + 32\n')
os.makedirs(os.path.dirname('tests/test_temps2.py') or '.', exist_ok=True)
open('tests/test_temps2.py', 'w').write('import doctest\n\nimport a23lib.temps2 as temps2\n\n\ndef test_doctests():\n    assert doctest.testmod(temps2).failed == 0\n\n\ndef test_public():\n    assert temps2.__all__ == ["to_celsius", "to_fahrenheit"]\n')
