open("a23lib/reqs.py", "w").write('''"""Pinned requirements like "requests == 2.31"."""
import functools
from dataclasses import dataclass


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Version:
    major: int
    minor: int = 0

    def __lt__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return (self.major, self.minor) < (other.major, other.minor)

    @classmethod
    def parse(cls, text):
        major, _, minor = text.partition(".")
        return cls(int(major), int(minor or 0))


@dataclass
class Requirement:
    name: str
    version: Version


def parse_requirement(line):
    """A requirement pinned with `==`; names are case-insensitive, kept lower-case."""
    name, _, version = line.partition("==")
    return Requirement(name.strip().lower(), Version.parse(version.strip()))
''')
open("tests/test_reqs.py", "w").write('''from a23lib.reqs import Requirement, Version, parse_requirement


def test_parse():
    assert parse_requirement("Requests == 2.31") == Requirement("requests", Version(2, 31))


def test_order():
    assert Version(2, 9) < Version(2, 31)
''')
