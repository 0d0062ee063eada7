open("a23lib/roman.py", "w").write('''"""Roman numerals, with pluggable output formats."""

_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}
_FORMATS = {}


def register_format(name):
    """Register a function that dresses a numeral for output (`render(n, name)`)."""
    def deco(fn):
        _FORMATS[name] = fn
        return fn
    return deco


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


def render(n, fmt):
    return _FORMATS[fmt](to_roman(n))
''')
open("tests/test_roman.py", "w").write('''import pytest

from a23lib.roman import from_roman, register_format, render, to_roman

CASES = [(4, "IV"), (9, "IX"), (14, "XIV"), (1994, "MCMXCIV"), (2024, "MMXXIV")]


@register_format("brackets")
def brackets(numeral):
    return f"[{numeral}]"


@pytest.mark.parametrize("n,want", CASES)
def test_to_roman(n, want):
    assert to_roman(n) == want


def test_render_custom_format():
    assert render(3, "brackets") == "[III]"


def test_parse():
    assert from_roman("XLII") == 42
''')
