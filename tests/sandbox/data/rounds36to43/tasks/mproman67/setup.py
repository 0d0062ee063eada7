import json
open("a23lib/roman.py", "w").write('"""Roman numerals."""\n\n_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),\n          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]\n_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}\n\n\ndef to_roman(n):\n    """The Roman numeral of 1 <= n < 4000."""\n    out = []\n    for value, letters in _UNITS:\n        while n >= value:\n            out.append(letters)\n            n -= value\n    return "".join(out)\n\n\ndef from_roman(text):\n    """The value of a Roman numeral (subtractive pairs allowed)."""\n    total = 0\n    for i, ch in enumerate(text):\n        v = _VALUES[ch]\n        if i + 1 < len(text) and _VALUES[text[i + 1]] > v:\n            total -= v\n        else:\n            total += v\n    return total\n')
open("a23lib/parallel.py", "w").write('''"""Run a function over items in worker processes."""
import multiprocessing


def pmap(fn, items, workers=2):
    """[fn(x) for x in items], computed by a pool of spawned workers."""
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        return pool.map(fn, items)
''')
json.dump([[4, "IV"], [9, "IX"], [14, "XIV"], [1994, "MCMXCIV"], [2024, "MMXXIV"]], open("tests/roman_cases.json", "w"))
open("tests/test_roman.py", "w").write('''import json
from pathlib import Path

import pytest

from a23lib.parallel import pmap
from a23lib.roman import to_roman

CASES = json.loads((Path(__file__).parent / "roman_cases.json").read_text())


@pytest.mark.parametrize("n,want", CASES)
def test_to_roman(n, want):
    assert to_roman(n) == want


def test_pmap():
    assert pmap(abs, [-1, 2, -3]) == [1, 2, 3]
''')
