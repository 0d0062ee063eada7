open("a23lib/disk.py", "w").write('''"""Disk capacities in fixed units: each unit is a subclass that names its byte factor."""


class Size:
    factor = 1

    def __init__(self, count):
        self.count = count

    def __eq__(self, other):
        return self.count * self.factor == (other.count * other.factor if isinstance(other, Size) else other)

    def __hash__(self):
        return hash(self.count * self.factor)


class Kilobytes(Size):
    factor = 10**3


class Megabytes(Size):
    factor = 10**6


_UNITS = {"KB": Kilobytes, "MB": Megabytes}


class Disk:
    """A disk of a given capacity such as `10MB`."""

    def __init__(self, capacity):
        self.capacity = _UNITS[capacity[-2:]](int(capacity[:-2]))

    def __eq__(self, other):
        return self.capacity == (other.capacity if isinstance(other, Disk) else other)

    def __hash__(self):
        return hash(self.capacity)
''')
open("tests/test_disk.py", "w").write('''from a23lib.disk import Disk


def test_megabytes():
    assert Disk("10MB") == 10_000_000


def test_kilobytes():
    assert Disk("2KB") == 2000
''')
