open("a23lib/stats.py", "w").write('''"""Descriptive statistics."""
import math


def _as_floats(xs):
    return [float(x) for x in xs]


def mean(xs):
    xs = _as_floats(xs)
    return sum(xs) / len(xs)


def variance(xs, sample=True):
    """Variance; the sample (n - 1) form by default."""
    xs = _as_floats(xs)
    m = mean(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1 if sample else len(xs))


def stdev(xs, sample=True):
    return math.sqrt(variance(xs, sample))
''')
open("tests/test_stats.py", "w").write('''import pytest

from a23lib.stats import mean, stdev, variance

TABLE = {
    "small": ([2, 4, 4, 4, 5, 5, 7, 9], 4.571428571428571),
    "pair": ([1, 3], 2.0),
    "floats": ([0.5, 1.5, 2.5], 1.0),
}


def pytest_generate_tests(metafunc):
    if "sample_case" in metafunc.fixturenames:
        metafunc.parametrize("sample_case", sorted(TABLE), indirect=False)


def test_sample_variance(sample_case):
    xs, want = TABLE[sample_case]
    assert variance(xs) == pytest.approx(want)


def test_population():
    assert variance([2, 4, 4, 4, 5, 5, 7, 9], sample=False) == pytest.approx(4.0)


def test_stdev():
    assert stdev([1, 3]) == pytest.approx(1.4142135623730951)


def test_mean():
    assert mean([1, 2, 3, 4]) == pytest.approx(2.5)
''')
