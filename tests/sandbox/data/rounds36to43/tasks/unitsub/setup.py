open("a23lib/unitsub.py", "w").write('''"""Sizes in fixed units: each unit is a subclass that names its byte factor."""


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
''')
open("tests/test_unitsub.py", "w").write('''from a23lib.unitsub import Kilobytes, Megabytes


def test_megabytes():
    assert Megabytes(10) == 10_000_000


def test_kilobytes():
    assert Kilobytes(2) == 2000
''')
