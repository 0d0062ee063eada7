open("a23lib/slicer.py", "w").write('''"""Slices written as text."""


def parse_slice(text):
    """`"1:5"` -> `slice(1, 5)`; empty parts are open ends."""
    parts = [int(p) if p else None for p in text.split(":")]
    return slice(*parts)
''')
open("tests/test_slicer.py", "w").write('''from a23lib.slicer import parse_slice


def test_bounds():
    assert parse_slice("1:5") == slice(1, 5)


def test_open():
    assert parse_slice(":") == slice(None, None)
''')
