src = open("/tmp/attack67/tasks/rmix/roman_src.txt").read()
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
