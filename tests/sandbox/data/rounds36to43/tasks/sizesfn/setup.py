open("a23lib/sizesfn.py", "w").write('''import functools

_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}


def _bytes(value):
    """A size's byte count, or a plain byte count as it is."""
    return value.nbytes if isinstance(value, Size) else value


@functools.total_ordering
class Size:
    """A data size such as `10MB`, ordered against other sizes and against plain byte counts."""

    def __init__(self, text):
        for unit in sorted(_UNITS, key=len, reverse=True):
            if text.endswith(unit):
                self.nbytes = int(text[:-len(unit)]) * _UNITS[unit]
                break
        else:
            raise ValueError(text)

    def __eq__(self, other):
        return self.nbytes == _bytes(other)

    def __lt__(self, other):
        return self.nbytes < _bytes(other)

    def __hash__(self):
        return hash(self.nbytes)
''')
open("tests/test_sizesfn.py", "w").write('''from a23lib.sizesfn import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
