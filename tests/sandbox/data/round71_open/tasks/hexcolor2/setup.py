open("a23lib/color.py", "w").write('''"""Colours."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Color:
    r: int
    g: int
    b: int


def parse_hex(text):
    """Color from '#rrggbb' or '#rgb'."""
    s = text.lstrip("#")
    if len(s) == 3:
        s = "".join(c * 2 for c in s)
    return Color(int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16))
''')
open("tests/test_color.py", "w").write('''import pytest

from a23lib.color import Color, parse_hex


@pytest.fixture
def palette():
    return {"#ff8800": Color(255, 136, 0), "#123456": Color(0x12, 0x34, 0x56), "#abc": Color(0xAA, 0xBB, 0xCC)}


def test_palette(palette):
    for text, want in palette.items():
        assert parse_hex(text) == want


def test_black():
    assert parse_hex("000000") == Color(0, 0, 0)
''')
