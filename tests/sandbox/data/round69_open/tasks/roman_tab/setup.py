open("a23lib/roman.py", "w").write('''"""Roman numerals."""

_VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
           (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n):
    """The Roman numeral for 1 <= n < 4000."""
    out = []
    for value, letters in _VALUES:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)
''')
open("tests/test_roman.py", "w").write('''import pytest

from a23lib.roman import to_roman


@pytest.mark.parametrize("n,want", [
    (4, "IV"),
    (9, "IX"),
    (14, "XIV"),
    (1994, "MCMXCIV"),
])
def test_to_roman(n, want):
    assert to_roman(n) == want


def test_three():
    assert to_roman(3) == "III"
''')
