FILES = {
"a23lib/_decorators.py": '''"""Documentation helpers (pandas' `@doc`)."""


def doc(**values):
    """Fill the decorated function's docstring template with `values`."""
    def decorate(fn):
        fn.__doc__ = fn.__doc__.format(**values)
        return fn
    return decorate
''',
"a23lib/conv.py": '''"""Length conversions."""
from a23lib._decorators import doc


@doc(unit="inches", ten="254.0")
def inches(n):
    """Convert {unit} to millimetres (rounded to 0.1 mm).

    >>> inches(10)
    {ten}
    """
    return round(n * 254 / 10, 1)


@doc(unit="feet", ten="3048.0")
def feet(n):
    """Convert {unit} to millimetres (rounded to 0.1 mm).

    >>> feet(10)
    {ten}
    """
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
