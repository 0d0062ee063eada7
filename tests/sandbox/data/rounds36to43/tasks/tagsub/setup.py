open("a23lib/tagset.py", "w").write('''"""Immutable sets of tag names."""
from collections.abc import Set


class TagSet(Set):
    """An immutable set of tag names, compared without regard to case."""

    def __init__(self, names=()):
        self._names = frozenset(n.strip().lower() for n in names)

    def __contains__(self, name):
        return isinstance(name, str) and name.strip().lower() in self._names

    def __iter__(self):
        return iter(sorted(self._names))

    def __len__(self):
        return len(self._names)

    def __repr__(self):
        return f"TagSet({sorted(self._names)!r})"


def parse_tags(text):
    """The tags of a comma- or semicolon-separated list."""
    return TagSet(p for p in text.replace(";", ",").split(",") if p.strip())
''')
open("tests/test_tagset.py", "w").write('''from a23lib.tagset import TagSet, parse_tags


def test_semicolons():
    assert parse_tags("Web; db, ops") == TagSet(["web", "db", "ops"])


def test_ops():
    assert TagSet(["a", "B"]) == TagSet(["b", "A"])
    assert "b" in TagSet(["A", "B"])
''')
