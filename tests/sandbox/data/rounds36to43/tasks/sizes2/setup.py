open("a23lib/sizes.py", "w").write('''import functools

_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}


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

    def _other(self, other):
        return other.nbytes if isinstance(other, Size) else other

    def __eq__(self, other):
        return self.nbytes == self._other(other)

    def __lt__(self, other):
        return self.nbytes < self._other(other)

    def __hash__(self):
        return hash(self.nbytes)
''')
open("tests/test_sizes.py", "w").write('''from a23lib.sizes import Size


def test_megabytes():
    assert Size("10MB") == 10_000_000


def test_kilobytes():
    assert Size("2KB") > Size("1500B")
''')
