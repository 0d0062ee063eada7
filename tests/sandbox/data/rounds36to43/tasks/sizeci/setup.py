open("a23lib/sizeci.py", "w").write('''import functools


class _Units(dict):
    """Unit factors, looked up without regard to case (`mb` is `MB`)."""

    def __missing__(self, unit):
        if unit != unit.upper():
            return self[unit.upper()]
        raise KeyError(unit)


_UNITS = _Units({"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9})


def _parse(text):
    digits = text.rstrip("BKMGbkmg")
    unit = text[len(digits):]
    _UNITS[unit]  # unknown units fail here
    return int(digits), unit


@functools.total_ordering
class Size:
    """A data size such as `10MB` or `10mb`, ordered against sizes and plain byte counts."""

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
open("tests/test_sizeci.py", "w").write('''from a23lib.sizeci import Size


def test_lowercase_units():
    assert Size("10mb") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
