src = '"""Roman numerals."""\n\n_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),\n          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]\n_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}\n\n\ndef to_roman(n):\n    """The Roman numeral of 1 <= n < 4000."""\n    out = []\n    for value, letters in _UNITS:\n        while n >= value:\n            out.append(letters)\n            n -= value\n    return "".join(out)\n\n\ndef from_roman(text):\n    """The value of a Roman numeral (subtractive pairs allowed)."""\n    total = 0\n    for i, ch in enumerate(text):\n        v = _VALUES[ch]\n        if i + 1 < len(text) and _VALUES[text[i + 1]] > v:\n            total -= v\n        else:\n            total += v\n    return total\n'
open("a23lib/roman.py", "w").write(src)
open("a23lib/spec.py", "w").write('''"""A base for test classes of converters: resets module caches around each test."""


class ConverterTests:
    def setup_method(self, method):
        """Start each test from a clean state."""
        from a23lib import roman
        roman.__dict__.get("_CACHE", {}).clear()
''')
open("tests/test_roman_cls.py", "w").write('''import pytest

from a23lib.roman import from_roman, to_roman
from a23lib.spec import ConverterTests


class TestRoman(ConverterTests):
    @pytest.mark.parametrize("n,want", [(4, "IV"), (9, "IX"), (14, "XIV"), (1994, "MCMXCIV"), (2024, "MMXXIV")])
    def test_to_roman(self, n, want):
        assert to_roman(n) == want

    def test_from_roman(self):
        assert from_roman("MCMXCIV") == 1994
''')
