import os
os.makedirs(os.path.dirname('a23lib/roman.py') or '.', exist_ok=True)
open('a23lib/roman.py', 'w').write('"""Roman numerals."""\n\n_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),\n          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]\n\n\ndef to_roman(n):\n    """The Roman numeral of 1 <= n < 4000."""\n    out = []\n    for value, letters in _UNITS:\n        while n >= value:\n            out.append(letters)\n            n -= value\n    return "".join(out)\n')
os.makedirs(os.path.dirname('tests/cases.py') or '.', exist_ok=True)
open('tests/cases.py', 'w').write('"""Shared numeral tables for the tests."""\n\nROMAN = [(4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL"), (90, "XC"), (1994, "MCMXCIV"), (2024, "MMXXIV")]\n')
os.makedirs(os.path.dirname('tests/test_roman.py') or '.', exist_ok=True)
open('tests/test_roman.py', 'w').write('import pytest\n\nfrom a23lib.roman import to_roman\nfrom tests import cases\n\n\n@pytest.mark.parametrize("n,want", cases.ROMAN)\ndef test_to_roman(n, want):\n    assert to_roman(n) == want\n\n\ndef test_small():\n    assert to_roman(3) == "III"\n')
