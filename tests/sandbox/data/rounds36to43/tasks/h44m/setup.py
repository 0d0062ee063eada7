open("a23lib/methods.py", "w").write('''"""HTTP request methods."""
from enum import Enum


class Method(Enum):
    """An HTTP method; equal to its name in any case."""

    GET = "GET"
    POST = "POST"
    PATCH = "PATCH"
    DELETE = "DELETE"

    def __eq__(self, other):
        if isinstance(other, str):
            return self.value == other.upper()
        return Enum.__eq__(self, other)

    __hash__ = Enum.__hash__

    @classmethod
    def parse(cls, text):
        """The method named by text, in any case."""
        return cls(text.strip().upper())
''')
open("tests/test_methods.py", "w").write('''from a23lib.methods import Method


def test_parse_patch():
    assert Method.parse(" patch ") is Method.PATCH


def test_lookup():
    assert {Method.GET: 1}[Method.parse("get")] == 1


def test_hashable():
    assert len({Method.GET, Method.POST, Method.GET}) == 2
''')
