FILES = {
"a23lib/conv.py": '''"""Length conversions; each converter's documentation is generated from one template (numpy style)."""

_FACTORS = {"inches": 254, "feet": 3048}  # tenths of a millimetre

_TEMPLATE = """Convert {unit} to millimetres: {unit} times {mm} mm, rounded to 0.1 mm.

>>> {unit}(10)
{ten}
"""


def inches(n):
    return round(n * _FACTORS["inches"] / 10, 1)


def feet(n):
    return round(n * _FACTORS["feet"] / 10, 1)


for _f, _ten in ((inches, "254.0"), (feet, "3048.0")):
    _f.__doc__ = _TEMPLATE.format(unit=_f.__name__, mm=_FACTORS[_f.__name__] / 10, ten=_ten)
''',
"tests/test_conv.py": '''import doctest

import a23lib.conv as conv


def test_doctests():
    assert doctest.testmod(conv).failed == 0


def test_inches():
    assert conv.inches(1) == 25.4
''',
}
BUG = [("a23lib/conv.py", '"feet": 3048}', '"feet": 3084}')]
F2P = ["tests/test_conv.py::test_doctests"]
P2P = ["tests/test_conv.py::test_inches"]
