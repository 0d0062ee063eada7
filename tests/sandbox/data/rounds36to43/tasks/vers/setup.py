open("a23lib/vers.py", "w").write('''"""Dotted release versions."""
import functools


@functools.total_ordering
class Version:
    """A release version like "1.10.2", ordered part by part."""

    def __init__(self, text):
        self.text = text
        self.parts = tuple(int(p) for p in text.split("."))

    def __eq__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return self.parts == other.parts

    def __lt__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return self.parts < other.parts

    def __hash__(self):
        return hash(self.parts)

    def __repr__(self):
        return f"Version({self.text!r})"


def oldest(texts):
    """The oldest of some version strings."""
    return min(Version(t) for t in texts)
''')
open("tests/test_vers.py", "w").write('''from a23lib.vers import Version, oldest


def test_oldest():
    assert oldest(["1.10", "1.9", "2.0"]) == Version("1.9")


def test_order():
    assert Version("1.2") < Version("1.10")
    assert Version("2.0") == Version("2.0")
''')
