open("a23lib/roman.py", "w").write('''"""Roman numerals."""

_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def to_roman(n):
    """The Roman numeral of 1 <= n < 4000."""
    out = []
    for value, letters in _UNITS:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def from_roman(text):
    """The value of a Roman numeral (subtractive pairs allowed)."""
    total = 0
    for i, ch in enumerate(text):
        v = _VALUES[ch]
        if i + 1 < len(text) and _VALUES[text[i + 1]] > v:
            total -= v
        else:
            total += v
    return total
''')
open("a23lib/checks.py", "w").write('''"""Assertion helpers for test suites of code that handles numerals."""


class NumeralAssertions:
    """Mix into a unittest.TestCase."""

    def assertRoundTrip(self, n):
        from a23lib.roman import from_roman, to_roman
        self.assertEqual(from_roman(to_roman(n)), n)
''')
open("tests/test_roman_unit.py", "w").write('''import unittest

from a23lib.checks import NumeralAssertions
from a23lib.roman import to_roman


class TestToRoman(NumeralAssertions, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = {4: "IV", 9: "IX", 14: "XIV", 1994: "MCMXCIV", 2024: "MMXXIV"}

    def test_table(self):
        for n in sorted(self.table):
            self.assertEqual(to_roman(n), self.table[n])

    def test_round_trip(self):
        self.assertRoundTrip(3)
''')
