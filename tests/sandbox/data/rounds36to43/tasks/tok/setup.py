open("a23lib/tok.py", "w").write('''"""A tiny tokenizer."""
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"\\s*(?:(?P<NUM>\\d+)|(?P<NAME>[A-Za-z_]\\w*)|(?P<OP>[-+*/=()]))")


@dataclass(frozen=True)
class Token:
    kind: str
    text: str


def tokenize(src):
    """The tokens of `src`."""
    out, pos = [], 0
    src = src.rstrip()
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if m is None:
            raise ValueError(f"bad input at {pos}")
        out.append(Token(m.lastgroup, m.group(m.lastgroup)))
        pos = m.end()
    return out
''')
open("tests/test_tok.py", "w").write('''from a23lib.tok import tokenize


def test_counts():
    toks = tokenize("x1 = 42 + y * 7")
    assert sum(1 for t in toks if t.kind == "NUM") == 2
    assert [t.text for t in toks if t.kind == "NAME"] == ["x1", "y"]


def test_lookup():
    toks = tokenize("total = price * 3")
    assert next(t for t in toks if t.kind == "OP").text == "="


def test_simple():
    assert len(tokenize("a")) == 1
''')
