open("a23lib/units.py", "w").write('''"""Lengths parsed from text such as "3 km"."""
import functools
import numbers

UNITS = {"m": 1, "km": 1000, "cm": 0.01}


class Length:
    """A length in metres; equal to another Length or to a plain number of metres."""

    def __init__(self, metres):
        self.metres = float(metres)

    def __repr__(self):
        return "Length(%r)" % self.metres

    def __eq__(self, other):
        if isinstance(other, Length):
            return self.metres == other.metres
        if isinstance(other, numbers.Real):
            return self.metres == other
        return NotImplemented

    @functools.lru_cache(maxsize=None)
    def __hash__(self):
        return hash(self.metres)


def parse_length(text):
    """ "3 km" -> Length(3000.0)."""
    number, unit = text.split()
    return Length(float(number) * UNITS[unit])
''')
open("tests/test_units.py", "w").write('''from a23lib.units import Length, parse_length


def test_km():
    assert parse_length("3 km") == Length(3000)


def test_number():
    assert parse_length("250 cm") == Length(2.5)
''')
open("tests/test_table.py", "w").write('''from a23lib.units import UNITS


def test_units():
    assert UNITS["km"] == 1000
''')
