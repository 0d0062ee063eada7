open("a23lib/sizeco.py", "w").write('''"""Data sizes (`10MB`) compared with sizes and with anything that names a size: byte counts, texts, pairs, records."""
import functools

_FACTORS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}


def _factor(unit):
    try:
        return _FACTORS[unit]
    except KeyError:
        raise ValueError(f"unknown unit {unit!r}") from None


def _to_bytes(count, unit):
    return count * _factor(unit)


def _from_size(v):
    return _to_bytes(v.count, v.unit)


def _from_text(v):
    return _coerce(Size(v))


def _from_int(v):
    if v < 0:
        raise ValueError("a size cannot be negative")
    return v


def _from_float(v):
    if not v.is_integer():
        raise ValueError("a byte count is whole")
    return _from_int(int(v))


def _from_pair(v):
    count, unit = v
    return _coerce(Size(f"{count}{unit}"))


def _from_mapping(v):
    return _from_pair((v["count"], v["unit"]))


def _from_bytes(v):
    return _from_text(v.decode("ascii"))


def _coerce(v):
    """The byte count of a size or of anything naming one."""
    if isinstance(v, Size):
        return _from_size(v)
    if isinstance(v, str):
        return _from_text(v)
    if isinstance(v, bool):
        raise TypeError("not a size: a bool")
    if isinstance(v, int):
        return _from_int(v)
    if isinstance(v, float):
        return _from_float(v)
    if isinstance(v, tuple):
        return _from_pair(v)
    if isinstance(v, dict):
        return _from_mapping(v)
    if isinstance(v, bytes):
        return _from_bytes(v)
    raise TypeError(f"not a size: {v!r}")


def _parse(text):
    for unit in sorted(_FACTORS, key=len, reverse=True):
        if text.endswith(unit):
            return int(text[:-len(unit)]), unit
    raise ValueError(text)


@functools.total_ordering
class Size:
    """A data size such as `10MB`, kept as count and unit."""

    def __init__(self, text):
        self.count, self.unit = _parse(text)

    def __eq__(self, other):
        try:
            return _coerce(self) == _coerce(other)
        except TypeError:
            return NotImplemented

    def __lt__(self, other):
        try:
            return _coerce(self) < _coerce(other)
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(_coerce(self))
''')
open("tests/test_sizeco.py", "w").write('''from a23lib.sizeco import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
