open("a23lib/sizematch.py", "w").write('''import functools

_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}


def _parse(text):
    for unit in sorted(_UNITS, key=len, reverse=True):
        if text.endswith(unit):
            return int(text[:-len(unit)]), unit
    raise ValueError(text)


@functools.total_ordering
class Size:
    """A data size such as `10MB`, kept in bytes, ordered against sizes and plain byte counts."""

    __match_args__ = ("nbytes",)

    def __init__(self, text):
        count, unit = _parse(text)
        self.nbytes = count * _UNITS[unit]

    def __eq__(self, other):
        match self, other:
            case Size(mine), Size(theirs):
                return mine == theirs
            case Size(mine), int() | float():
                return mine == other
        return NotImplemented

    def __lt__(self, other):
        match self, other:
            case Size(mine), Size(theirs):
                return mine < theirs
            case Size(mine), int() | float():
                return mine < other
        return NotImplemented

    def __hash__(self):
        return hash(self.nbytes)
''')
open("tests/test_sizematch.py", "w").write('''from a23lib.sizematch import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
