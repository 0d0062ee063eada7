open("a23lib/text.py", "w").write('''"""Text helpers."""


def squeeze(text):
    """Collapse runs of whitespace to one space and strip the ends."""
    return " ".join(text.split())
''')
open("tests/test_text.py", "w").write('''import pytest

from a23lib.text import squeeze


@pytest.mark.parametrize("raw,want", [
    ("a  b", "a b"),
    ("  lead and trail  ", "lead and trail"),
    ("tab\\tand\\nnewline", "tab and newline"),
    ("   ", ""),
])
def test_squeeze(raw, want):
    assert squeeze(raw) == want


def test_plain():
    assert squeeze("x") == "x"
''')
