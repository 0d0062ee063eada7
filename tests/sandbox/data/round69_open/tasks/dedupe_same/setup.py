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


def same_sequence(a, b):
    """Whether two iterables yield equal items in the same order."""
    a, b = list(a), list(b)
    return len(a) == len(b) and all(x == y for x, y in zip(a, b))
''')
open("tests/test_seq.py", "w").write('''from a23lib.seq import same_sequence, unique


def test_unique_keeps_order():
    assert same_sequence(unique([3, 1, 3, 2, 1]), [3, 1, 2])


def test_unique_words():
    assert same_sequence(unique(["b", "a", "b", "c"]), ["b", "a", "c"])


def test_same_sequence():
    assert same_sequence([1, 2], (1, 2))
    assert not same_sequence([1, 2], [1, 2, 3])
''')
