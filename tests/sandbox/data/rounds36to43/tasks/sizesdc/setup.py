open("a23lib/sizesdc.py", "w").write('''import dataclasses


@dataclasses.dataclass(frozen=True)
class Unit:
    """A size unit: its symbol and how many bytes it holds."""

    symbol: str
    factor: int


UNITS = [Unit("B", 1), Unit("KB", 10**3), Unit("MB", 10**6), Unit("GB", 10**9)]


class Size:
    """A data size such as `10MB`, compared with other sizes and with plain byte counts."""

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
        return self.nbytes == (other.nbytes if isinstance(other, Size) else other)

    def __hash__(self):
        return hash(self.nbytes)
''')
open("tests/test_sizesdc.py", "w").write('''from a23lib.sizesdc import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") == Size("2000B")
''')
