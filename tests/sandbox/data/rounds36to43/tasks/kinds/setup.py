open("a23lib/lex.py", "w").write('''"""A lexer with token kinds."""
import enum
import re
from dataclasses import dataclass


class Kind(enum.Enum):
    NUM = "num"
    NAME = "name"
    OP = "op"


_TOKEN = re.compile(r"\\s*(?:(?P<NUM>\\d+(?:\\.\\d+)?)|(?P<NAME>[A-Za-z_]\\w*)|(?P<OP>[-+*/=()]))")


@dataclass(frozen=True)
class Token:
    kind: Kind
    text: str


def lex(src):
    """The tokens of `src`."""
    out, pos, src = [], 0, src.rstrip()
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if m is None:
            raise ValueError(f"bad input at {pos}")
        out.append(Token(Kind[m.lastgroup], m.group(m.lastgroup)))
        pos = m.end()
    return out
''')
open("tests/test_lex.py", "w").write('''from a23lib.lex import Kind, lex


def test_decimal():
    tok = lex("3.25")[0]
    assert tok.kind == Kind.NUM and tok.text == "3.25"


def test_name():
    assert lex("x")[0].text == "x"
''')
