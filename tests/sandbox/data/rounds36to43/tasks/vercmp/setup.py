open("a23lib/vercmp.py", "w").write('''"""Dotted release versions."""
import operator
from functools import partialmethod


class Version:
    """A release version such as 1.10.2, ordered part by part as numbers."""

    def __init__(self, text):
        self.text = text
        self.parts = tuple(int(p) for p in text.split("."))

    def _compare(self, other, op):
        if not isinstance(other, Version):
            return NotImplemented
        return op(self.parts, other.parts)

    __eq__ = partialmethod(_compare, op=operator.eq)
    __lt__ = partialmethod(_compare, op=operator.lt)
    __le__ = partialmethod(_compare, op=operator.le)
    __gt__ = partialmethod(_compare, op=operator.gt)
    __ge__ = partialmethod(_compare, op=operator.ge)

    def __hash__(self):
        return hash(self.parts)

    def __repr__(self):
        return "Version(%r)" % self.text


def latest(texts):
    """The highest of the versions named."""
    return max(Version(t) for t in texts)
''')
open("tests/test_vercmp.py", "w").write('''from a23lib.vercmp import Version, latest


def test_latest_two_digit_minor():
    assert latest(["1.9", "1.10", "1.2"]).text == "1.10"


def test_order():
    assert Version("2.0") > Version("1.99")
''')
