open("a23lib/util.py", "w").write('''"""Small helpers."""

from importlib import import_module


def import_string(dotted):
    """The object a dotted path names (`package.module.NAME`), as settings and plugin tables spell it."""
    module, _, name = dotted.rpartition(".")
    return getattr(import_module(module), name)
''')
open("a23lib/roman.py", "w").write('''"""Roman numerals."""

_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def to_roman(n):
    """The Roman numeral of 1 <= n < 4000."""
    out = []
    for value, letters in _UNITS:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def from_roman(s):
    """The value of a Roman numeral."""
    total = 0
    for a, b in zip(s, s[1:] + " "):
        v = _VALUES[a]
        total += -v if b != " " and _VALUES[b] > v else v
    return total
''')
open("tests/cases.py", "w").write('''ROMAN = [(4, "IV"), (9, "IX"), (14, "XIV"), (1994, "MCMXCIV"), (2024, "MMXXIV")]
''')
open("tests/test_roman.py", "w").write('''import pytest

from a23lib.roman import from_roman, to_roman
from tests.cases import ROMAN


@pytest.mark.parametrize("n,want", ROMAN)
def test_to_roman(n, want):
    assert to_roman(n) == want


def test_parse():
    assert from_roman("XLII") == 42
''')
