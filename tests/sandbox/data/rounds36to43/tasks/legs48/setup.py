open("a23lib/legs.py", "w").write('''"""Legs of a route parsed from text such as "Oslo-Bergen 3 km"."""
import functools
import numbers

UNITS = {"m": 1, "km": 1000, "cm": 0.01}


class Length:
    """A length in metres; equal to another Length or to a plain number of metres."""

    def __init__(self, metres):
        self.metres = float(metres)

    def __repr__(self):
        return "Length(%r)" % self.metres

    @functools.singledispatchmethod
    def __eq__(self, other):
        if isinstance(other, Length):
            return self.metres == other.metres
        return NotImplemented

    @__eq__.register(numbers.Real)
    def _(self, other):
        return self.metres == other

    def __hash__(self):
        return hash(self.metres)


class Leg:
    def __init__(self, name, length):
        self.name = name
        self.length = length

    def __eq__(self, other):
        if not isinstance(other, Leg):
            return NotImplemented
        return self.name == other.name and self.length == other.length

    def __repr__(self):
        return f"Leg({self.name!r}, {self.length!r})"


def parse_leg(text):
    """ "Oslo-Bergen 3 km" -> Leg("Oslo-Bergen", Length(3000.0))."""
    name, number, unit = text.split()
    return Leg(name, Length(float(number) * UNITS[unit]))
''')
open("tests/test_legs.py", "w").write('''from a23lib.legs import Leg, Length, parse_leg


def test_km():
    assert parse_leg("Oslo-Bergen 3 km") == Leg("Oslo-Bergen", Length(3000))


def test_m():
    assert parse_leg("Pier 250 m") == Leg("Pier", Length(250))
''')
