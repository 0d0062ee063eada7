open("a23lib/isort.py", "w").write('''"""Insertion sort."""


def isort(items):
    """A new list holding the items in ascending order (duplicates kept)."""
    out = []
    for x in items:
        i = len(out)
        while i > 0 and out[i - 1] > x:
            i -= 1
        out.insert(i, x)
    return out
''')
open("tests/test_isort.py", "w").write('''import pytest

from a23lib.isort import isort


@pytest.mark.parametrize("xs", [
    [3, 1, 3, 2],
    [5, 5, 5],
    [0, -1, 0, 7, -1],
])
def test_matches_sorted(xs):
    assert isort(xs) == sorted(xs)


def test_empty():
    assert isort([]) == []


def test_distinct():
    assert isort([3, 1, 2]) == [1, 2, 3]
''')
