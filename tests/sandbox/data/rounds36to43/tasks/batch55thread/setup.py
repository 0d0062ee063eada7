open("a23lib/batch.py", "w").write('''"""Run a function over many inputs at once."""
from concurrent.futures import ThreadPoolExecutor


def run_all(fn, items, workers=4):
    """fn(item) for each item, in the order of items."""
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))
''')
open("tests/test_batch.py", "w").write('''import time

from a23lib.batch import run_all


def slow_square(x):
    time.sleep(0.01 * (5 - x))
    return x * x


def test_order():
    assert run_all(slow_square, [1, 2, 3, 4]) == [1, 4, 9, 16]


def test_empty():
    assert run_all(slow_square, []) == []
''')
