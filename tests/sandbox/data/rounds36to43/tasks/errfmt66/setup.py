open("a23lib/intlist.py", "w").write('''"""Comma-separated integer lists."""


class ParseError(ValueError):
    def __init__(self, msg, line, col):
        super().__init__(msg)
        self.msg, self.line, self.col = msg, line, col


def parse_int_list(text):
    """The integers of `text`, comma separated, across lines; positions in errors are 0-based offsets."""
    out = []
    for lineno, line in enumerate(text.split("\\n"), 1):
        col = 0
        for item in line.split(","):
            stripped = item.strip()
            if not stripped:
                raise ParseError("empty item", lineno, col)
            if not stripped.lstrip("-").isdigit():
                raise ParseError(f"unexpected {stripped!r}", lineno, col + item.index(stripped))
            out.append(int(stripped))
            col += len(item) + 1
    return out


def format_error(exc):
    """`line L, col C: message`, columns counted from 1 as editors do."""
    return f"line {exc.line}, col {exc.col + 1}: {exc.msg}"
''')
open("tests/test_intlist.py", "w").write('''import pytest

from a23lib.intlist import ParseError, format_error, parse_int_list


def test_parse():
    assert parse_int_list("1, 2,3\\n-4") == [1, 2, 3, -4]


@pytest.mark.parametrize("text,want", [
    ("1,2,x", "line 1, col 5: unexpected 'x'"),
    ("1,2\\n3,,4", "line 2, col 3: empty item"),
    ("a", "line 1, col 1: unexpected 'a'"),
], ids=["bad-item", "empty", "first"])
def test_error_message(text, want):
    with pytest.raises(ParseError) as info:
        parse_int_list(text)
    assert format_error(info.value) == want
''')
