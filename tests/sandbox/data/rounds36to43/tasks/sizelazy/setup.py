open("a23lib/sizelazy.py", "w").write('''import functools

_SUFFIXES = ("GB", "MB", "KB", "B")
_FACTORS = None  # built on first use


def _factors():
    global _FACTORS
    if _FACTORS is None:
        _FACTORS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}
    return _FACTORS


def _parse(text):
    for unit in _SUFFIXES:
        if text.endswith(unit):
            return int(text[:-len(unit)]), unit
    raise ValueError(text)


@functools.total_ordering
class Size:
    """A data size such as `10MB`, kept as count and unit, ordered against other sizes."""

    def __init__(self, text):
        self.count, self.unit = _parse(text)

    def __eq__(self, other):
        if not isinstance(other, Size):
            return NotImplemented
        return self.count * _factors()[self.unit] == other.count * _factors()[other.unit]

    def __lt__(self, other):
        if not isinstance(other, Size):
            return NotImplemented
        return self.count * _factors()[self.unit] < other.count * _factors()[other.unit]

    def __hash__(self):
        return hash(self.count * _factors()[self.unit])
''')
open("tests/test_sizelazy.py", "w").write('''from a23lib.sizelazy import Size


def test_megabytes():
    assert Size("1MB") == Size("1000KB")


def test_parse():
    assert Size("2KB").unit == "KB"
''')
