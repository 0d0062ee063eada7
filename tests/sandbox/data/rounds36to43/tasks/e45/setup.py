open("a23lib/units.py", "w").write('''"""Size units, as written in config files."""
from enum import Enum


class Unit(Enum):
    """A size unit; a member equals the text it is written as."""

    KB = "kb"
    MB = "mb"
    GB = "gb"

    def __eq__(self, other):
        if isinstance(other, str):
            return self.value == other
        return super().__eq__(other)

    __hash__ = Enum.__hash__


def parse_unit(text):
    """The unit written as text."""
    return Unit(text.strip().lower())
''')
open("tests/test_units.py", "w").write('''from a23lib.units import Unit, parse_unit


def test_parse():
    assert parse_unit(" mb ") is Unit.MB


def test_hashable():
    units = {parse_unit(t) for t in ("kb", " KB", "gb")}
    assert units == {Unit.KB, Unit.GB}
    assert parse_unit("gb") != Unit.KB
''')
