open("a23lib/vergen2.py", "w").write('''"""Release versions major.minor.patch."""
import functools

_FIELDS = ("major", "minor", "patch")


def _num(text):
    return int(text)


@functools.total_ordering
class Release:
    def __init__(self, text):
        major, minor, patch = (text.split(".") + ["0", "0"])[:3]
        self.major, self.minor, self.patch = _num(major), _num(minor), _num(patch)

    def __eq__(self, other):
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    def __lt__(self, other):
        return next((getattr(self, f) < getattr(other, f) for f in _FIELDS if getattr(self, f) != getattr(other, f)), False)

    def __hash__(self):
        return hash((self.major, self.minor, self.patch))
''')
open("tests/test_vergen2.py", "w").write('''from a23lib.vergen2 import Release


def test_two_digit_minor():
    assert Release("1.10") > Release("1.9")


def test_major():
    assert Release("2.0") > Release("1.5")
''')
