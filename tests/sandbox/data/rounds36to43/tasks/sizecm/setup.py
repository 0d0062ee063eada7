open("a23lib/sizecm.py", "w").write('''import functools


class Units:
    """The unit table and its conversions."""

    factors = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}

    @classmethod
    def parse(cls, text):
        for unit in sorted(cls.factors, key=len, reverse=True):
            if text.endswith(unit):
                return int(text[:-len(unit)]), unit
        raise ValueError(text)

    @classmethod
    def to_bytes(cls, count, unit):
        return count * cls.factors[unit]


@functools.total_ordering
class Size:
    """A data size such as `10MB`, kept as count and unit, ordered against sizes and plain byte counts."""

    def __init__(self, text):
        self.count, self.unit = Units.parse(text)

    def __eq__(self, other):
        if isinstance(other, Size):
            return Units.to_bytes(self.count, self.unit) == Units.to_bytes(other.count, other.unit)
        return Units.to_bytes(self.count, self.unit) == other

    def __lt__(self, other):
        if isinstance(other, Size):
            return Units.to_bytes(self.count, self.unit) < Units.to_bytes(other.count, other.unit)
        return Units.to_bytes(self.count, self.unit) < other

    def __hash__(self):
        return hash(Units.to_bytes(self.count, self.unit))
''')
open("tests/test_sizecm.py", "w").write('''from a23lib.sizecm import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
