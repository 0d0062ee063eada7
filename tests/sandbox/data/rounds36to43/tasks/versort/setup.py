open("a23lib/versort.py", "w").write('''"""Dotted version numbers, ordered part by part."""
import functools


def _part(text):
    return int(text)


@functools.total_ordering
class Version:
    def __init__(self, text):
        self.parts = tuple(_part(p) for p in text.split("."))

    def __eq__(self, other):
        return self.parts == other.parts

    def __lt__(self, other):
        return self.parts < other.parts

    def __hash__(self):
        return hash(self.parts)
''')
open("tests/test_versort.py", "w").write('''from a23lib.versort import Version


def test_sorted():
    assert sorted([Version("1.10"), Version("1.9"), Version("1.2")]) == [Version("1.2"), Version("1.9"), Version("1.10")]


def test_latest():
    assert max([Version("1.10"), Version("1.9")]) == Version("1.10")


def test_equal():
    assert Version("1.2") == Version("1.2")
''')
