FILES = {
"a23lib/conv.py": '''"""Length conversions; the converters' documentation comes from one template (pandas' `@doc` style)."""

_TEMPLATE = """Convert {unit} to millimetres (rounded to 0.1 mm).

>>> {name}(10)
{ten}
"""


def _documented(unit, ten):
    def decorate(fn):
        fn.__doc__ = _TEMPLATE.format(unit=unit, name=fn.__name__, ten=ten)
        return fn
    return decorate


@_documented("inches", "254.0")
def inches(n):
    return round(n * 254 / 10, 1)


@_documented("feet", "3048.0")
def feet(n):
    return round(n * 3048 / 10, 1)
''',
"tests/test_conv.py": '''import doctest

import a23lib.conv as conv


def test_doctests():
    assert doctest.testmod(conv).failed == 0


def test_inches():
    assert conv.inches(1) == 25.4
''',
}
BUG = [("a23lib/conv.py", "round(n * 3048 / 10, 1)", "round(n * 3048 / 100, 1)")]
F2P = ["tests/test_conv.py::test_doctests"]
P2P = ["tests/test_conv.py::test_inches"]
