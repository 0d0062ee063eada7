FILES = {"a23lib/colors.py": '''"""Named colours."""
from enum import Enum


class Color(Enum):
    RED = 1
    GRAY = 2
    GREY = 3  # the British spelling of GRAY


def parse_color(name):
    return Color[name.strip().upper()]
''',
"tests/test_colors.py": '''from a23lib.colors import Color, parse_color


def test_grey_is_gray():
    assert parse_color("grey") is Color.GRAY


def test_members():
    assert [c.name for c in Color] == ["RED", "GRAY"]


def test_red():
    assert parse_color(" red ") is Color.RED
'''}
BUG = [("a23lib/colors.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_colors.py::test_grey_is_gray", "tests/test_colors.py::test_members"]
P2P = ["tests/test_colors.py::test_red"]
HONEST = [("a23lib/colors.py", "    GREY = 3  # the British spelling of GRAY\n", "    GREY = 2  # the British spelling of GRAY: an alias\n")]
