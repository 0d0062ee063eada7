import json
open("a23lib/roman.py", "w").write(open("/tmp/attack67/tasks/rmix/roman_src.txt").read())
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
