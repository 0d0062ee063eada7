open("a23lib/par.py", "w").write('''"""Map a function over items on worker processes."""
from concurrent.futures import ProcessPoolExecutor


def pmap(func, items, workers=2):
    """`[func(x) for x in items]`, computed by `workers` processes."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(func, items))
''')
open("a23lib/stats.py", "w").write('''"""Simple statistics."""


def mean(xs):
    """Arithmetic mean of a non-empty sequence."""
    return sum(xs) / len(xs)
''')
open("tests/test_par.py", "w").write('''from a23lib.par import pmap
from a23lib.stats import mean


def square(x):
    return x * x


def test_pmap():
    assert pmap(square, [1, 2, 3]) == [1, 4, 9]


def test_mean():
    assert mean([1, 2, 3, 6]) == 3
''')
