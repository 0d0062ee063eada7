open("a23lib/tagset.py", "w").write('''"""Immutable sets of tag names."""
from collections.abc import Hashable, Set


class TagSet(Set, Hashable):
    """An immutable set of tag names, compared without regard to case; usable as a dict key."""

    def __init__(self, names=()):
        self._names = frozenset(n.strip().lower() for n in names)

    def __contains__(self, name):
        return isinstance(name, str) and name.strip().lower() in self._names

    def __iter__(self):
        return iter(sorted(self._names))

    def __len__(self):
        return len(self._names)

    __hash__ = Set._hash

    def __repr__(self):
        return f"TagSet({sorted(self._names)!r})"
''')
open("tests/test_tagset.py", "w").write('''from a23lib.tagset import TagSet


def test_key():
    index = {TagSet(["Web", "db"]): "backend"}
    assert index[TagSet(["db", "web"])] == "backend"


def test_ops():
    assert TagSet(["a", "B"]) == TagSet(["b", "A"])
    assert "b" in TagSet(["A", "B"])
    assert len(TagSet(["a", "a "])) == 1
''')
