open("a23lib/tokens.py", "w").write('''"""A tiny tokenizer for arithmetic expressions."""
import re

_TOKEN = re.compile(r"\\s*(?:(\\d+\\.\\d*|\\.\\d+|\\d+)|(\\*\\*|[-+*/()]))")


def tokenize(text):
    """Yield ("num", value) and ("op", symbol) pairs."""
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise SyntaxError(f"bad input at {pos}: {text[pos:]!r}")
        number, op = m.groups()
        if number is not None:
            yield ("num", float(number) if "." in number else int(number))
        else:
            yield ("op", op)
        pos = m.end()
''')
open("tests/test_tokens.py", "w").write('''import pytest

from a23lib.tokens import tokenize

CASES = [
    ("1 + 2", [("num", 1), ("op", "+"), ("num", 2)]),
    ("2 ** 3", [("num", 2), ("op", "**"), ("num", 3)]),
    ("(1.5*4)", [("op", "("), ("num", 1.5), ("op", "*"), ("num", 4), ("op", ")")]),
    (".5 - 7", [("num", 0.5), ("op", "-"), ("num", 7)]),
]


@pytest.mark.parametrize("idx", range(len(CASES)))
def test_tokenize(idx):
    text, want = CASES[idx]
    assert list(tokenize(text)) == want


def test_bad():
    with pytest.raises(SyntaxError):
        list(tokenize("1 $ 2"))
''')
