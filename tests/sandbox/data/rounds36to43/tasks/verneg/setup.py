open("a23lib/verneg.py", "w").write('''"""Dotted version numbers, ordered part by part."""
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
open("tests/test_verneg.py", "w").write('''from a23lib.verneg import Version


def test_two_digit_minor():
    assert not Version("1.10") < Version("1.9")


def test_major():
    assert Version("2.0") > Version("1.5")
''')
