open("a23lib/verord3.py", "w").write('''"""Dotted version numbers, ordered part by part against versions and tuples."""
import functools


def _part(text):
    return int(text)


@functools.total_ordering
class Version:
    def __init__(self, text):
        self.text = text
        self.parts = [_part(p) for p in text.split(".")]

    def _key(self, other):
        return tuple(other.parts) if isinstance(other, Version) else tuple(other)

    def __eq__(self, other):
        return tuple(self.parts) == self._key(other)

    def __lt__(self, other):
        return tuple(self.parts) < self._key(other)

    def __hash__(self):
        return hash(tuple(self.parts))
''')
open("tests/test_verord3.py", "w").write('''from a23lib.verord3 import Version


def test_two_digit_minor():
    assert Version("1.10") > (1, 9)


def test_major():
    assert Version("2.0") > (1, 5)
''')
