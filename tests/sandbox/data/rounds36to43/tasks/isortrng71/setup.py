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
open("tests/test_isort.py", "w").write('''import random

from a23lib.isort import isort


def test_matches_sorted_on_random_lists():
    random.seed(2021)
    for _ in range(50):
        xs = [random.randint(-9, 9) for _ in range(random.randint(0, 12))]
        assert isort(xs) == sorted(xs)


def test_empty():
    assert isort([]) == []


def test_distinct():
    assert isort([3, 1, 2]) == [1, 2, 3]
''')
