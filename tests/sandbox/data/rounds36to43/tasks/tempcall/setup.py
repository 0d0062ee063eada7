open("a23lib/tempcall.py", "w").write('''import math


class _Offset:
    """A conversion to kelvin that adds a fixed offset."""

    def __init__(self, offset):
        self.offset = offset

    def __call__(self, value):
        return value + self.offset


class _Ratio:
    """A conversion to kelvin that scales by a fixed ratio."""

    def __init__(self, ratio):
        self.ratio = ratio

    def __call__(self, value):
        return value * self.ratio


_TO_KELVIN = {"K": _Offset(0), "C": _Offset(273.15), "R": _Ratio(5 / 9)}


class Temperature:
    """A temperature such as `21.5C`, compared in kelvin with temperatures and plain kelvin numbers."""

    def __init__(self, text):
        self.value, self.unit = float(text[:-1]), text[-1]
        if self.unit not in _TO_KELVIN:
            raise ValueError(f"unknown unit {self.unit!r}")

    def kelvin(self):
        return _TO_KELVIN[self.unit](self.value)

    def __eq__(self, other):
        if isinstance(other, Temperature):
            return math.isclose(self.kelvin(), other.kelvin())
        return math.isclose(self.kelvin(), other)

    def __hash__(self):
        return hash(round(self.kelvin(), 9))
''')
open("tests/test_tempcall.py", "w").write('''from a23lib.tempcall import Temperature


def test_rankine():
    assert Temperature("9R") == 5


def test_celsius():
    assert Temperature("0C") == 273.15
''')
