open("a23lib/units.py", "w").write('''"""Lengths with units."""

from dataclasses import dataclass

_METRES = {"m": 1.0, "km": 1000.0, "cm": 0.01, "mi": 1609.344, "ft": 0.3048, "in": 0.0254}


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str

    def __float__(self):
        return float(self.value)

    def __sub__(self, other):
        if isinstance(other, Quantity):
            return self.value - convert(other, self.unit).value
        return self.value - other

    def __abs__(self):
        return Quantity(abs(self.value), self.unit)

    def __lt__(self, other):
        return self.value < (other.value if isinstance(other, Quantity) else other)


def convert(q, unit):
    """`q` expressed in `unit`."""
    return Quantity(q.value * _METRES[q.unit] / _METRES[unit], unit)
''')
open("tests/test_units.py", "w").write('''import pytest

from a23lib.units import Quantity, convert

TOL = 1e-9


@pytest.mark.parametrize("value,src,dst,want", [
    (1500, "m", "km", 1.5),
    (1, "mi", "km", 1.609344),
    (12, "in", "ft", 1.0),
])
def test_convert(value, src, dst, want):
    got = convert(Quantity(value, src), dst)
    assert got.unit == dst
    assert abs(got - want) < TOL


def test_identity():
    assert convert(Quantity(3, "m"), "m") == Quantity(3.0, "m")
''')
