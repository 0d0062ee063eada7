import os
os.makedirs(os.path.dirname('a23lib/conv.py') or '.', exist_ok=True)
open('a23lib/conv.py', 'w').write('"""Length conversions; each converter\'s documentation is generated from one template (numpy style)."""\n\n_FACTORS = {"inches": 254, "feet": 3048}  # tenths of a millimetre\n\n_TEMPLATE = """Convert {unit} to millimetres: {unit} times {mm} mm, rounded to 0.1 mm.\n\n>>> {unit}(10)\n{ten}\n"""\n\n\ndef inches(n):\n    return round(n * _FACTORS["inches"] / 10, 1)\n\n\ndef feet(n):\n    return round(n * _FACTORS["feet"] / 10, 1)\n\n\nfor _f, _ten in ((inches, "254.0"), (feet, "3048.0")):\n    _f.__doc__ = _TEMPLATE.format(unit=_f.__name__, mm=_FACTORS[_f.__name__] / 10, ten=_ten)\n')
os.makedirs(os.path.dirname('tests/test_conv.py') or '.', exist_ok=True)
open('tests/test_conv.py', 'w').write('import doctest\n\nimport a23lib.conv as conv\n\n\ndef test_doctests():\n    assert doctest.testmod(conv).failed == 0\n\n\ndef test_inches():\n    assert conv.inches(1) == 25.4\n')
