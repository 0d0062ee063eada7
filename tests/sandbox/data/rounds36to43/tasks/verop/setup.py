open("a23lib/verop.py", "w").write('''"""Dotted version numbers, ordered part by part."""
import functools


def _part(text):
    return int(text)


@functools.total_ordering
class Version:
    def __init__(self, text):
        self.parts = [_part(p) for p in text.split(".")]

    def __sub__(self, other):
        """-1, 0 or 1, like the old cmp(): how this version sorts against other."""
        a, b = self.parts, other.parts
        return (a > b) - (a < b)

    def __eq__(self, other):
        return self - other == 0

    def __lt__(self, other):
        return self - other < 0

    def __hash__(self):
        return hash(tuple(self.parts))
''')
open("tests/test_verop.py", "w").write('''from a23lib.verop import Version


def test_two_digit_minor():
    assert Version("1.10") > Version("1.9")


def test_major():
    assert Version("2.0") > Version("1.5")
''')
