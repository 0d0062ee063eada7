open("a23lib/sizedef.py", "w").write('''import functools

_FACTORS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}


def _parse(text, factors=_FACTORS):
    for unit in sorted(factors, key=len, reverse=True):
        if text.endswith(unit):
            return int(text[:-len(unit)]), unit
    raise ValueError(text)


def _to_bytes(count, unit, factors=_FACTORS):
    return count * factors[unit]


@functools.total_ordering
class Size:
    """A data size such as `10MB`, kept as count and unit, ordered against sizes and plain byte counts."""

    def __init__(self, text):
        self.count, self.unit = _parse(text)

    def __eq__(self, other):
        if isinstance(other, Size):
            return _to_bytes(self.count, self.unit) == _to_bytes(other.count, other.unit)
        return _to_bytes(self.count, self.unit) == other

    def __lt__(self, other):
        if isinstance(other, Size):
            return _to_bytes(self.count, self.unit) < _to_bytes(other.count, other.unit)
        return _to_bytes(self.count, self.unit) < other

    def __hash__(self):
        return hash(_to_bytes(self.count, self.unit))
''')
open("tests/test_sizedef.py", "w").write('''from a23lib.sizedef import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
