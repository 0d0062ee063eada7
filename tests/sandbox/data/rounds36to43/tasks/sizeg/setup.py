open("a23lib/sizeg.py", "w").write('''import functools

_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}


def _parse(text):
    for unit in sorted(_UNITS, key=len, reverse=True):
        if text.endswith(unit):
            return int(text[:-len(unit)]), unit
    raise ValueError(text)


@functools.total_ordering
class Size:
    """A data size such as `10MB`, kept as count and unit, ordered against sizes and plain byte counts."""

    def __init__(self, text):
        self.count, self.unit = _parse(text)

    def __eq__(self, other):
        if isinstance(other, Size):
            return self.count * _UNITS[self.unit] == other.count * _UNITS[other.unit]
        return self.count * _UNITS[self.unit] == other

    def __lt__(self, other):
        if isinstance(other, Size):
            return self.count * _UNITS[self.unit] < other.count * _UNITS[other.unit]
        return self.count * _UNITS[self.unit] < other

    def __hash__(self):
        return hash(self.count * _UNITS[self.unit])
''')
open("tests/test_sizeg.py", "w").write('''from a23lib.sizeg import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
