open("a23lib/show.py", "w").write('''"""Short, log-friendly reprs (the limits of reprlib.repr)."""

MAXSTRING = 30
MAXLIST = 6


def short(value):
    """A repr cut like reprlib's: long strings keep both ends, long lists show their first items."""
    if isinstance(value, str):
        text = repr(value)
        if len(text) > MAXSTRING:
            i = max(0, (MAXSTRING - 3) // 2)
            j = max(0, MAXSTRING - 3 - i)
            text = text[:i] + "..." + text[len(text) - j:]
        return text
    if isinstance(value, list):
        shown = ", ".join(short(v) for v in value[:MAXLIST])
        return "[" + shown + (", ...]" if len(value) > MAXLIST else "]")
    return repr(value)
''')
open("tests/test_show.py", "w").write('''import reprlib

import pytest

from a23lib.show import short


@pytest.mark.parametrize("value", [
    "short",
    "a" * 40,
    "the quick brown fox jumps over the lazy dog",
    list(range(3)),
    list(range(20)),
])
def test_like_reprlib(value):
    assert short(value) == reprlib.repr(value)
''')
