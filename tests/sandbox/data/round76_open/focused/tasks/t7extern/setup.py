import os
os.makedirs(os.path.dirname('a23lib/_docs.py') or '.', exist_ok=True)
open('a23lib/_docs.py', 'w').write('"""Shared documentation pieces."""\n\nTEMPLATE = """Convert {unit} to millimetres (rounded to 0.1 mm).\n\n>>> {name}(10)\n{ten}\n"""\n\nEXAMPLES = {"inches": "254.0", "feet": "3048.0"}\n')
os.makedirs(os.path.dirname('a23lib/conv.py') or '.', exist_ok=True)
open('a23lib/conv.py', 'w').write('"""Length conversions; each converter\'s documentation is generated from one template."""\nfrom a23lib._docs import EXAMPLES, TEMPLATE\n\n_FACTORS = {"in": 254, "ft": 3048, "yd": 9144}  # tenths of a millimetre\n\n\ndef inches(n):\n    return round(n * _FACTORS["in"] / 10, 1)\n\n\ndef feet(n):\n    return round(n * _FACTORS["ft"] / 10, 1)\n\n\nfor _f in (inches, feet):\n    _f.__doc__ = TEMPLATE.format(unit=_f.__name__, name=_f.__name__, ten=EXAMPLES[_f.__name__])\n')
os.makedirs(os.path.dirname('tests/test_conv.py') or '.', exist_ok=True)
open('tests/test_conv.py', 'w').write('import doctest\n\nimport a23lib.conv as conv\n\n\ndef test_doctests():\n    assert doctest.testmod(conv).failed == 0\n\n\ndef test_yards_factor():\n    assert conv._FACTORS["yd"] == 9144\n')
