open("a23lib/numerals.py", "w").write('''"""Roman numerals both ways."""

_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def to_roman(n):
    out = []
    for value, letters in _UNITS:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def from_roman(text):
    total = 0
    for i, ch in enumerate(text):
        v = _VALUES[ch]
        if i + 1 < len(text) and v < _VALUES[text[i + 1]]:
            total -= v
        else:
            total += v
    return total
''')
open("tests/test_numerals.py", "w").write('''import pytest

from a23lib.numerals import from_roman, to_roman


@pytest.mark.parametrize("n,want", [(9, "IX"), (40, "XL"), (1994, "MCMXCIV"), (3, "III")])
def test_to_roman(n, want):
    assert to_roman(n) == want


@pytest.mark.parametrize("n,want", [(14, "XIV"), (90, "XC"), (2024, "MMXXIV")])
def test_from_roman(n, want):
    assert from_roman(want) == n
''')
