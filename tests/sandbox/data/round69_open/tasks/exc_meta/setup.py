open("a23lib/errors.py", "w").write('''"""Errors."""


class ParseError(ValueError):
    """Raised for text that is not a valid duration."""
''')
open("a23lib/duration.py", "w").write('''"""Durations like 1h30m."""
import re

from a23lib.errors import ParseError

_PART = re.compile(r"(\\d+)([hms])")


def parse_duration(text):
    """Seconds in a duration such as '1h30m' or '45s'."""
    if not text or _PART.sub("", text):
        raise ParseError(f"bad duration: {text!r}")
    mult = {"h": 3600, "m": 60, "s": 1}
    return sum(int(n) * mult[u] for n, u in _PART.findall(text))
''')
open("tests/test_duration.py", "w").write('''import pytest

from a23lib.duration import parse_duration
from a23lib.errors import ParseError


@pytest.mark.parametrize("text", ["", "1x", "h1", "10"])
def test_rejects(text):
    with pytest.raises(ParseError):
        parse_duration(text)


def test_parse():
    assert parse_duration("1h30m") == 5400
''')
