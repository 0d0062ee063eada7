open("a23lib/lexer.py", "w").write('''"""A tiny expression lexer."""

import re
from dataclasses import dataclass

KINDS = ("NUM", "NAME", "OP")


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    pos: int


_RX = re.compile(r"\\s*(?:(\\d+\\.\\d+|\\d+)|([A-Za-z_]\\w*)|(\\*\\*|[-+*/()]))")


def tokenize(src):
    """The tokens of `src`, each with its offset."""
    out = []
    i = 0
    src = src.rstrip()
    while i < len(src):
        m = _RX.match(src, i)
        if not m:
            raise SyntaxError(f"bad input at {i}")
        num, name, op = m.groups()
        kind, text = ("NUM", num) if num else ("NAME", name) if name else ("OP", op)
        out.append(Token(kind, text, m.start(m.lastindex)))
        i = m.end()
    return out
''')
open("tests/test_lexer.py", "w").write('''import pytest

from a23lib.lexer import Token, tokenize

CASES = [
    ("x + 1", [Token("NAME", "x", 0), Token("OP", "+", 2), Token("NUM", "1", 4)]),
    ("2 ** 10", [Token("NUM", "2", 0), Token("OP", "**", 2), Token("NUM", "10", 5)]),
    ("a**b - 3.5", [Token("NAME", "a", 0), Token("OP", "**", 1), Token("NAME", "b", 3),
                    Token("OP", "-", 5), Token("NUM", "3.5", 7)]),
]


@pytest.mark.parametrize("src,want", CASES)
def test_tokenize(src, want):
    assert tokenize(src) == want


def test_blank():
    assert tokenize("   ") == []
''')
