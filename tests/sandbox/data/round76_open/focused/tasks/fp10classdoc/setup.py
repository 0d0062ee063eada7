import os
os.makedirs(os.path.dirname('a23lib/units.py') or '.', exist_ok=True)
open('a23lib/units.py', 'w').write('"""Length units; each unit class\'s documentation is generated from one template."""\n\n_TEMPLATE = """The {unit} unit.\n\n>>> {cls}().to_mm(10)\n{ten}\n"""\n\n\nclass Inch:\n    __doc__ = _TEMPLATE.format(unit="inch", cls="Inch", ten="254.0")\n\n    def to_mm(self, n):\n        return round(n * 254 / 10, 1)\n\n\nclass Foot:\n    __doc__ = _TEMPLATE.format(unit="foot", cls="Foot", ten="3048.0")\n\n    def to_mm(self, n):\n        return round(n * 3048 / 10, 1)\n')
os.makedirs(os.path.dirname('tests/test_units.py') or '.', exist_ok=True)
open('tests/test_units.py', 'w').write('import doctest\n\nimport a23lib.units as units\n\n\ndef test_doctests():\n    assert doctest.testmod(units).failed == 0\n\n\ndef test_inch():\n    assert units.Inch().to_mm(1) == 25.4\n')
