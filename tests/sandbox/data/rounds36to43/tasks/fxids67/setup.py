src = '"""Roman numerals."""\n\n_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),\n          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]\n_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}\n\n\ndef to_roman(n):\n    """The Roman numeral of 1 <= n < 4000."""\n    out = []\n    for value, letters in _UNITS:\n        while n >= value:\n            out.append(letters)\n            n -= value\n    return "".join(out)\n\n\ndef from_roman(text):\n    """The value of a Roman numeral (subtractive pairs allowed)."""\n    total = 0\n    for i, ch in enumerate(text):\n        v = _VALUES[ch]\n        if i + 1 < len(text) and _VALUES[text[i + 1]] > v:\n            total -= v\n        else:\n            total += v\n    return total\n'
src += '''

def describe(value):
    """A one-line description of a value, for logs and reports."""
    if isinstance(value, tuple):
        return "/".join(describe(v) for v in value)
    return str(value)
'''
open("a23lib/roman.py", "w").write(src)
open("tests/test_roman_fx.py", "w").write('''import pytest

from a23lib.roman import describe, from_roman, to_roman


@pytest.fixture(params=[(4, "IV"), (9, "IX"), (14, "XIV"), (1994, "MCMXCIV")], ids=describe)
def case(request):
    return request.param


def test_to_roman(case):
    n, want = case
    assert to_roman(n) == want


def test_from_roman(case):
    n, text = case
    assert from_roman(text) == n
''')
