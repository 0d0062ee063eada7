import os
os.makedirs(os.path.dirname('a23lib/colors.py') or '.', exist_ok=True)
open('a23lib/colors.py', 'w').write('"""Named colours."""\nfrom enum import Enum\n\n\nclass Color(Enum):\n    RED = 1\n    GRAY = 2\n    GREY = 3  # the British spelling of GRAY\n\n\ndef parse_color(name):\n    return Color[name.strip().upper()]\n')
os.makedirs(os.path.dirname('tests/test_colors.py') or '.', exist_ok=True)
open('tests/test_colors.py', 'w').write('from a23lib.colors import Color, parse_color\n\n\ndef test_grey_is_gray():\n    assert parse_color("grey") is Color.GRAY\n\n\ndef test_members():\n    assert [c.name for c in Color] == ["RED", "GRAY"]\n\n\ndef test_red():\n    assert parse_color(" red ") is Color.RED\n')
