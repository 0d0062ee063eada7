open("a23lib/sizeval2.py", "w").write('''import functools

_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}


class _NonNegative:
    """A field that refuses negative numbers when set."""

    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return obj.__dict__[self.name]

    def __set__(self, obj, value):
        if value < 0:
            raise ValueError(f"{self.name[1:]} must not be negative, got {value!r}")
        obj.__dict__[self.name] = value


@functools.total_ordering
class Size:
    """A data size: a count of some unit, ordered against sizes and plain byte counts."""

    count = _NonNegative()

    def __init__(self, count, unit="B"):
        self.count = count
        self.unit = unit

    def __eq__(self, other):
        if isinstance(other, Size):
            return self.count * _UNITS[self.unit] == other.count * _UNITS[other.unit]
        return self.count * _UNITS[self.unit] == other

    def __lt__(self, other):
        if isinstance(other, Size):
            return self.count * _UNITS[self.unit] < other.count * _UNITS[other.unit]
        return self.count * _UNITS[self.unit] < other

    def __hash__(self):
        return hash(self.count * _UNITS[self.unit])
''')
open("tests/test_sizeval2.py", "w").write('''import pytest

from a23lib.sizeval2 import Size


def test_negative_refused():
    s = Size(1, "MB")
    with pytest.raises(ValueError):
        s.count = -5


def test_megabytes():
    assert Size(10, "MB") == 10_000_000


def test_order():
    assert Size(2, "KB") > Size(1500)
''')
