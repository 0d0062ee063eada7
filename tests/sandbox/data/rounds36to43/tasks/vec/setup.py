open("a23lib/vec.py", "w").write('''"""2-D integer vectors."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Vec:
    x: int
    y: int


def add(a, b):
    """Component-wise sum."""
    return Vec(a.x + b.x, a.y + b.y)
''')
open("tests/test_vec.py", "w").write('''from a23lib.vec import Vec, add


def test_add():
    assert add(Vec(1, 2), Vec(3, 4)) == Vec(4, 6)


def test_zero():
    assert add(Vec(0, 0), Vec(0, 0)) == Vec(0, 0)
''')
