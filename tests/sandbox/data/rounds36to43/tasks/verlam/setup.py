open("a23lib/verlam.py", "w").write('''"""Release versions major.minor.patch."""
import functools


def _num(text):
    return int(text)


@functools.total_ordering
class Release:
    def __init__(self, text):
        major, minor, patch = (text.split(".") + ["0", "0"])[:3]
        self.major, self.minor, self.patch = _num(major), _num(minor), _num(patch)

    def __eq__(self, other):
        key = lambda r: (r.major, r.minor, r.patch)
        return key(self) == key(other)

    def __lt__(self, other):
        key = lambda r: (r.major, r.minor, r.patch)
        return key(self) < key(other)

    def __hash__(self):
        return hash((self.major, self.minor, self.patch))
''')
open("tests/test_verlam.py", "w").write('''from a23lib.verlam import Release


def test_two_digit_minor():
    assert Release("1.10") > Release("1.9")


def test_major():
    assert Release("2.0") > Release("1.5")
''')
