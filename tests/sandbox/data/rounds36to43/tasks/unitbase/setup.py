open("a23lib/unitbase.py", "w").write('''import functools


class ValueObject:
    """Equal when of the same class with the same fields; hashable by them."""

    def __eq__(self, other):
        return type(self) is type(other) and vars(self) == vars(other)

    def __hash__(self):
        return hash((type(self).__name__, *sorted(vars(self).items())))


class Unit(ValueObject):
    """A size unit: its symbol and how many bytes it holds."""

    def __init__(self, symbol, factor):
        self.symbol = symbol
        self.factor = factor


UNITS = [Unit("B", 1), Unit("KB", 10**3), Unit("MB", 10**6), Unit("GB", 10**9)]


@functools.total_ordering
class Size:
    """A data size such as `10MB`, ordered by its byte count."""

    def __init__(self, text):
        for unit in sorted(UNITS, key=lambda u: len(u.symbol), reverse=True):
            if text.endswith(unit.symbol):
                self.count = int(text[:-len(unit.symbol)])
                self.unit = unit
                break
        else:
            raise ValueError(text)

    @property
    def nbytes(self):
        return self.count * self.unit.factor

    def __eq__(self, other):
        return self.nbytes == other.nbytes

    def __lt__(self, other):
        return self.nbytes < other.nbytes

    def __hash__(self):
        return hash(self.nbytes)
''')
open("tests/test_unitbase.py", "w").write('''from a23lib.unitbase import Size, Unit


def test_unit_is_a_value():
    assert Size("3KB").unit == Unit("KB", 10**3)


def test_order():
    assert Size("2KB") > Size("1500B")
''')
