open("a23lib/tempr3.py", "w").write('''import functools


class Scale:
    """A temperature scale: how a reading converts to kelvin."""

    def to_kelvin(self, t):
        raise NotImplementedError


class Celsius(Scale):
    def to_kelvin(self, t):
        return t + 273.15


class Fahrenheit(Scale):
    def to_kelvin(self, t):
        return (t - 32) * 5 / 9 + 273.15


class Kelvin(Scale):
    def to_kelvin(self, t):
        return t


class Rankine(Scale):
    def to_kelvin(self, t):
        return t * 5 / 9


_SCALES = {"C": Celsius(), "F": Fahrenheit(), "K": Kelvin(), "R": Rankine()}


def _parse(text):
    unit = text[-1:]
    if unit not in _SCALES:
        raise ValueError(f"unknown temperature unit in {text!r}")
    return float(text[:-1]), unit


@functools.total_ordering
class Temperature:
    """A temperature such as `21.5C` or `70F`, compared in kelvin against temperatures and plain numbers."""

    def __init__(self, text):
        self.value, self.unit = _parse(text)

    def kelvin(self):
        return round(_SCALES[self.unit].to_kelvin(self.value), 6)

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
open("tests/test_tempr3.py", "w").write('''from a23lib.tempr3 import Temperature


def test_rankine():
    assert Temperature("491.67R") == Temperature("0C")


def test_celsius_order():
    assert Temperature("10C") > Temperature("5C")
''')
