open("a23lib/verstar.py", "w").write('''"""Dotted version numbers, ordered part by part."""
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
        return [*self] == [*other]

    def __lt__(self, other):
        return [*self] < [*other]

    def __hash__(self):
        return hash((*self,))
''')
open("tests/test_verstar.py", "w").write('''from a23lib.verstar import Version


def test_two_digit_minor():
    assert Version("1.10") > Version("1.9")


def test_major():
    assert Version("2.0") > Version("1.5")
''')
