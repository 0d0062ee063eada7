open("a23lib/seq.py", "w").write('''"""Sequence helpers."""


def unique(items):
    """The items without repeats, in first-seen order."""
    seen = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out
''')
open("a23lib/testing.py", "w").write('''"""Assertion helpers shipped for the project's and its users' tests."""


def assert_seq_equal(got, want):
    """Fail unless two sequences hold equal items in the same order."""
    got, want = list(got), list(want)
    if got != want:
        raise AssertionError(f"sequences differ: {got!r} != {want!r}")
''')
open("tests/test_seq.py", "w").write('''from a23lib.seq import unique
from a23lib.testing import assert_seq_equal


def test_unique_keeps_order():
    assert_seq_equal(unique([3, 1, 3, 2, 1]), [3, 1, 2])


def test_unique_words():
    assert_seq_equal(unique(["b", "a", "b", "c"]), ["b", "a", "c"])


def test_empty():
    assert_seq_equal(unique([]), [])
''')
