src = '"""Roman numerals."""\n\n_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),\n          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]\n_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}\n\n\ndef to_roman(n):\n    """The Roman numeral of 1 <= n < 4000."""\n    out = []\n    for value, letters in _UNITS:\n        while n >= value:\n            out.append(letters)\n            n -= value\n    return "".join(out)\n\n\ndef from_roman(text):\n    """The value of a Roman numeral (subtractive pairs allowed)."""\n    total = 0\n    for i, ch in enumerate(text):\n        v = _VALUES[ch]\n        if i + 1 < len(text) and _VALUES[text[i + 1]] > v:\n            total -= v\n        else:\n            total += v\n    return total\n'
open("a23lib/roman.py", "w").write(src)
open("a23lib/spec.py", "w").write('''"""Declarative conversion specs: subclass and set `convert` and `CASES` (value, expected text)."""


class ConversionSpec:
    convert = None
    CASES = ()

    def check_all(self):
        """Pairs whose conversion differs from the expected text."""
        return [(v, want, self.convert(v)) for v, want in self.CASES if self.convert(v) != want]
''')
open("tests/test_roman_spec.py", "w").write('''import pytest

from a23lib.roman import to_roman
from a23lib.spec import ConversionSpec


class TestRomanSpec(ConversionSpec):
    convert = staticmethod(to_roman)
    CASES = [(4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL"), (1994, "MCMXCIV"), (2024, "MMXXIV")]

    def test_cases(self):
        for n, want in self.CASES:
            assert to_roman(n) == want

    def test_check_all_on_easy_ones(self):
        easy = ConversionSpec()
        easy.convert = to_roman
        easy.CASES = [(3, "III"), (6, "VI")]
        assert easy.check_all() == []
''')
