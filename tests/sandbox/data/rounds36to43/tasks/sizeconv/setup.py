open("a23lib/sizeconv.py", "w").write('''import functools


class _Converter:
    """Byte counts of sizes in a unit table."""

    def __init__(self, units):
        self.units = units

    def to_bytes(self, count, unit):
        return count * self.units[unit]


_CONVERTER = _Converter({"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9})


@functools.total_ordering
class Size:
    """A data size such as `10MB`, kept as count and unit, ordered against sizes and plain byte counts."""

    def __init__(self, text):
        for unit in sorted(_CONVERTER.units, key=len, reverse=True):
            if text.endswith(unit):
                self.count, self.unit = int(text[:-len(unit)]), unit
                return
        raise ValueError(text)

    def __eq__(self, other):
        if isinstance(other, Size):
            other = _CONVERTER.to_bytes(other.count, other.unit)
        return _CONVERTER.to_bytes(self.count, self.unit) == other

    def __lt__(self, other):
        if isinstance(other, Size):
            other = _CONVERTER.to_bytes(other.count, other.unit)
        return _CONVERTER.to_bytes(self.count, self.unit) < other

    def __hash__(self):
        return hash(_CONVERTER.to_bytes(self.count, self.unit))
''')
open("tests/test_sizeconv.py", "w").write('''from a23lib.sizeconv import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
