open("a23lib/stats.py", "w").write('''"""Small statistics."""


def mean(xs):
    """The arithmetic mean of a non-empty sequence."""
    xs = list(xs)
    return sum(xs) / len(xs)
''')
open("tests/test_stats.py", "w").write('''import pytest

from a23lib.stats import mean


@pytest.mark.parametrize("xs,want", [
    ([1, 2], 1.5),
    ([2, 4, 9], 5.0),
    ([0.5, 0.25], 0.375),
])
def test_mean(xs, want):
    assert mean(xs) == pytest.approx(want)


def test_one():
    assert mean([4]) == 4
''')
