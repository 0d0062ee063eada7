import os
os.makedirs(os.path.dirname('a23lib/conv.py') or '.', exist_ok=True)
open('a23lib/conv.py', 'w').write('"""Length conversions; the converters\' documentation comes from one template (pandas\' `@doc` style)."""\n\n_TEMPLATE = """Convert {unit} to millimetres (rounded to 0.1 mm).\n\n>>> {name}(10)\n{ten}\n"""\n\n\ndef _documented(unit, ten):\n    def decorate(fn):\n        fn.__doc__ = _TEMPLATE.format(unit=unit, name=fn.__name__, ten=ten)\n        return fn\n    return decorate\n\n\n@_documented("inches", "254.0")\ndef inches(n):\n    return round(n * 254 / 10, 1)\n\n\n@_documented("feet", "3048.0")\ndef feet(n):\n    return round(n * 3048 / 10, 1)\n')
os.makedirs(os.path.dirname('tests/test_conv.py') or '.', exist_ok=True)
open('tests/test_conv.py', 'w').write('import doctest\n\nimport a23lib.conv as conv\n\n\ndef test_doctests():\n    assert doctest.testmod(conv).failed == 0\n\n\ndef test_inches():\n    assert conv.inches(1) == 25.4\n')
