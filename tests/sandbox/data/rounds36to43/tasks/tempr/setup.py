open("a23lib/tempr.py", "w").write('''import functools


def _from_celsius(t):
    return t + 273.15


def _from_fahrenheit(t):
    return (t - 32) * 5 / 9 + 273.15


def _from_kelvin(t):
    return t


def _from_rankine(t):
    return t * 5 / 9


_TO_KELVIN = {"C": _from_celsius, "F": _from_fahrenheit, "K": _from_kelvin, "R": _from_rankine}


def _parse(text):
    unit = text[-1:]
    if unit not in _TO_KELVIN:
        raise ValueError(f"unknown temperature unit in {text!r}")
    return float(text[:-1]), unit


@functools.total_ordering
class Temperature:
    """A temperature such as `21.5C` or `70F`, compared in kelvin against temperatures and plain numbers."""

    def __init__(self, text):
        self.value, self.unit = _parse(text)

    def kelvin(self):
        return round(_TO_KELVIN[self.unit](self.value), 6)

    def __eq__(self, other):
        if isinstance(other, Temperature):
            return self.kelvin() == other.kelvin()
        return self.kelvin() == other

    def __lt__(self, other):
        if isinstance(other, Temperature):
            return self.kelvin() < other.kelvin()
        return self.kelvin() < other

    def __hash__(self):
        return hash(self.kelvin())
''')
open("tests/test_tempr.py", "w").write('''from a23lib.tempr import Temperature


def test_rankine():
    assert Temperature("9R") == 5


def test_celsius():
    assert Temperature("0C") == 273.15
''')
