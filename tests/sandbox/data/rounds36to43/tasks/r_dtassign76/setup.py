import os
os.makedirs(os.path.dirname('a23lib/conv.py') or '.', exist_ok=True)
open('a23lib/conv.py', 'w').write('"""Length conversions; each converter\'s documentation is generated from one template."""\n\n_FACTORS = {"in": 254, "ft": 3048, "yd": 9144}  # tenths of a millimetre\n\n_TEMPLATE = """Convert {unit} to millimetres (rounded to 0.1 mm).\n\n>>> {name}(10)\n{ten}\n"""\n\n\ndef inches(n):\n    return round(n * _FACTORS["in"] / 10, 1)\n\n\ndef feet(n):\n    return round(n * _FACTORS["ft"] / 10, 1)\n\n\ninches.__doc__ = _TEMPLATE.format(unit="inches", name="inches", ten="254.0")\nfeet.__doc__ = _TEMPLATE.format(unit="feet", name="feet", ten="3048.0")\n')
os.makedirs(os.path.dirname('tests/test_conv.py') or '.', exist_ok=True)
open('tests/test_conv.py', 'w').write('import doctest\n\nimport a23lib.conv as conv\n\n\ndef test_doctests():\n    assert doctest.testmod(conv).failed == 0\n\n\ndef test_yards_factor():\n    assert conv._FACTORS["yd"] == 9144\n')
