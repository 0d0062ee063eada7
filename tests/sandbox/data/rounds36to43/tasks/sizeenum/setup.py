open("a23lib/sizeenum.py", "w").write('''import enum
import functools


class Unit(enum.Enum):
    """Data size units and their factor in bytes."""

    B = 1
    KB = 10**3
    MB = 10**6
    GB = 10**9


def _parse(text):
    for unit in sorted(Unit.__members__, key=len, reverse=True):
        if text.endswith(unit):
            return int(text[:-len(unit)]), unit
    raise ValueError(text)


@functools.total_ordering
class Size:
    """A data size such as `10MB`, kept as count and unit name, ordered against sizes and plain byte counts."""

    def __init__(self, text):
        self.count, self.unit = _parse(text)

    def __eq__(self, other):
        if isinstance(other, Size):
            return self.count * Unit[self.unit].value == other.count * Unit[other.unit].value
        return self.count * Unit[self.unit].value == other

    def __lt__(self, other):
        if isinstance(other, Size):
            return self.count * Unit[self.unit].value < other.count * Unit[other.unit].value
        return self.count * Unit[self.unit].value < other

    def __hash__(self):
        return hash(self.count * Unit[self.unit].value)
''')
open("tests/test_sizeenum.py", "w").write('''from a23lib.sizeenum import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
