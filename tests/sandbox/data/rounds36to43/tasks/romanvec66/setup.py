import os
os.makedirs('vectors', exist_ok=True)
open('vectors/__init__.py', 'w').write('"""Conformance vectors shared by the tests and the benchmarks."""\n')
open("a23lib/roman.py", "w").write('''"""Roman numerals."""

_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n):
    """The Roman numeral of 1 <= n < 4000."""
    out = []
    for value, letters in _UNITS:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)
''')
open("vectors/roman.py", "w").write('''ROMAN = [(4, "IV"), (9, "IX"), (14, "XIV"), (1994, "MCMXCIV"), (2024, "MMXXIV")]
''')
open("tests/test_roman.py", "w").write('''import pytest

from a23lib.roman import to_roman
from vectors.roman import ROMAN


@pytest.mark.parametrize("n,want", ROMAN)
def test_to_roman(n, want):
    assert to_roman(n) == want


def test_one():
    assert to_roman(3) == "III"
''')
