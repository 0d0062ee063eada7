open("a23lib/msort.py", "w").write('''"""Merge sort."""


def msort(items):
    """A new list with the items in ascending order."""
    items = list(items)
    if len(items) <= 1:
        return items
    mid = len(items) // 2
    left, right = msort(items[:mid]), msort(items[mid:])
    out = []
    while left and right:
        out.append(left.pop(0) if left[0] <= right[0] else right.pop(0))
    return out + left
''')
open("tests/test_msort.py", "w").write('''import pytest

from a23lib.msort import msort


@pytest.mark.parametrize("data,want", [
    ([3, 1, 2], [1, 2, 3]),
    ([5, 4, 9, 1], [1, 4, 5, 9]),
    ([2, 2, 1], [1, 2, 2]),
])
def test_msort(data, want):
    assert msort(data) == want


def test_single():
    assert msort([7]) == [7]
''')
