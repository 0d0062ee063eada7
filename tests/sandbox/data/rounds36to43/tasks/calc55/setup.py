open("a23lib/calc.py", "w").write('''"""Small arithmetic helpers."""


def triple(x):
    """Three times x."""
    return x * 3


def double(x):
    return x * 2
''')
open("tests/test_calc.py", "w").write('''from a23lib.calc import triple, double


def test_triple():
    assert triple(7) == 21


def test_zero():
    assert triple(0) == 0
    assert double(4) == 8
''')
