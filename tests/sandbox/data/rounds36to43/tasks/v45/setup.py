open("a23lib/vers.py", "w").write('''"""Dotted version numbers."""
import operator
from functools import partialmethod


class Version:
    def __init__(self, text):
        self.parts = tuple(int(p) for p in text.split("."))

    def _compare(self, other, op):
        if not isinstance(other, Version):
            return NotImplemented
        return op(self.parts, other.parts)

    __eq__ = partialmethod(_compare, op=operator.eq)
    __lt__ = partialmethod(_compare, op=operator.lt)
    __le__ = partialmethod(_compare, op=operator.le)
    __hash__ = None

    def __repr__(self):
        return "Version(%r)" % ".".join(map(str, self.parts))
''')
open("tests/test_vers.py", "w").write('''from a23lib.vers import Version


def test_le():
    assert Version("1.2") <= Version("1.10")


def test_lt():
    assert Version("1.2") < Version("1.10")
''')
