import os
os.makedirs(os.path.dirname('a23lib/_decorators.py') or '.', exist_ok=True)
open('a23lib/_decorators.py', 'w').write('"""Documentation helpers (pandas\' `@doc`)."""\n\n\ndef doc(**values):\n    """Fill the decorated function\'s docstring template with `values`."""\n    def decorate(fn):\n        fn.__doc__ = fn.__doc__.format(**values)\n        return fn\n    return decorate\n')
os.makedirs(os.path.dirname('a23lib/conv.py') or '.', exist_ok=True)
open('a23lib/conv.py', 'w').write('"""Length conversions."""\nfrom a23lib._decorators import doc\n\n\n@doc(unit="inches", ten="254.0")\ndef inches(n):\n    """Convert {unit} to millimetres (rounded to 0.1 mm).\n\n    >>> inches(10)\n    {ten}\n    """\n    return round(n * 254 / 10, 1)\n\n\n@doc(unit="feet", ten="3048.0")\ndef feet(n):\n    """Convert {unit} to millimetres (rounded to 0.1 mm).\n\n    >>> feet(10)\n    {ten}\n    """\n    return round(n * 3048 / 10, 1)\n')
os.makedirs(os.path.dirname('tests/test_conv.py') or '.', exist_ok=True)
open('tests/test_conv.py', 'w').write('import doctest\n\nimport a23lib.conv as conv\n\n\ndef test_doctests():\n    assert doctest.testmod(conv).failed == 0\n\n\ndef test_inches():\n    assert conv.inches(1) == 25.4\n')
