open("a23lib/verord.py", "w").write('''"""Dotted version numbers, ordered part by part."""
import functools


def _part(text):
    return int(text)


@functools.total_ordering
class Version:
    def __init__(self, text):
        self.parts = [_part(p) for p in text.split(".")]

    def __iter__(self):
        return iter(self.parts)

    def __eq__(self, other):
        return tuple(self) == tuple(other)

    def __lt__(self, other):
        return tuple(self) < tuple(other)

    def __hash__(self):
        return hash(tuple(self))
''')
open("tests/test_verord.py", "w").write('''from a23lib.verord import Version


def test_two_digit_minor():
    assert Version("1.10") > Version("1.9")


def test_major():
    assert Version("2.0") > Version("1.5")
''')
