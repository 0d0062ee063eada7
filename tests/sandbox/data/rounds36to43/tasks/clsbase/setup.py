open("a23lib/calc.py", "w").write('''"""Small arithmetic helpers."""


def triple(x):
    """Three times x."""
    return x * 3


def double(x):
    return x * 2
''')
open("a23lib/_test_base.py", "w").write('''"""Base class of the project's test classes."""


class CalcTestBase:
    """A fresh scratch dict for every test."""

    def setup_method(self, method):
        self.scratch = {}
''')
open("tests/test_clsbase.py", "w").write('''from a23lib._test_base import CalcTestBase
from a23lib.calc import triple, double


class TestCalc(CalcTestBase):
    def test_triple(self):
        assert triple(7) == 21

    def test_zero(self):
        assert triple(0) == 0
        assert double(4) == 8
''')
