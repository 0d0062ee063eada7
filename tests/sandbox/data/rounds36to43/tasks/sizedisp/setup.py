open("a23lib/sizedisp.py", "w").write('''import functools


def _bytes(n):
    return n


def _kilobytes(n):
    return n * 10**3


def _megabytes(n):
    return n * 10**6


def _gigabytes(n):
    return n * 10**9


_TO_BYTES = {"B": _bytes, "KB": _kilobytes, "MB": _megabytes, "GB": _gigabytes}


def _parse(text):
    for unit in sorted(_TO_BYTES, key=len, reverse=True):
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
            return _TO_BYTES[self.unit](self.count) == _TO_BYTES[other.unit](other.count)
        return _TO_BYTES[self.unit](self.count) == other

    def __lt__(self, other):
        if isinstance(other, Size):
            return _TO_BYTES[self.unit](self.count) < _TO_BYTES[other.unit](other.count)
        return _TO_BYTES[self.unit](self.count) < other

    def __hash__(self):
        return hash(_TO_BYTES[self.unit](self.count))
''')
open("tests/test_sizedisp.py", "w").write('''from a23lib.sizedisp import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
