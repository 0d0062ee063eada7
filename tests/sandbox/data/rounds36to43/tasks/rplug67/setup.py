src = '"""Roman numerals."""\n\n_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),\n          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]\n_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}\n\n\ndef to_roman(n):\n    """The Roman numeral of 1 <= n < 4000."""\n    out = []\n    for value, letters in _UNITS:\n        while n >= value:\n            out.append(letters)\n            n -= value\n    return "".join(out)\n\n\ndef from_roman(text):\n    """The value of a Roman numeral (subtractive pairs allowed)."""\n    total = 0\n    for i, ch in enumerate(text):\n        v = _VALUES[ch]\n        if i + 1 < len(text) and _VALUES[text[i + 1]] > v:\n            total -= v\n        else:\n            total += v\n    return total\n'
open("a23lib/roman.py", "w").write(src)
open("a23lib/plugin.py", "w").write('''"""pytest fixtures shipped with a23lib for projects that use it (enable with `pytest_plugins = ["a23lib.plugin"]`)."""
import pytest


@pytest.fixture
def roman_env(request):
    """The roman module with its options reset for the test."""
    from a23lib import roman
    saved = dict(getattr(roman, "OPTIONS", {}))
    yield roman
    if hasattr(roman, "OPTIONS"):
        roman.OPTIONS.clear()
        roman.OPTIONS.update(saved)
''')
open("tests/test_roman_plug.py", "w").write('''import pytest

pytest_plugins = ["a23lib.plugin"]


@pytest.mark.parametrize("n,want", [(4, "IV"), (9, "IX"), (14, "XIV"), (1994, "MCMXCIV"), (2024, "MMXXIV")])
def test_to_roman(roman_env, n, want):
    assert roman_env.to_roman(n) == want


def test_from_roman(roman_env):
    assert roman_env.from_roman("XIV") == 14
''')
