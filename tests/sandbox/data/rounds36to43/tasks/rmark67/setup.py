src = open("/tmp/attack67/tasks/rmix/roman_src.txt").read()
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
