open("a23lib/shapes.py", "w").write('''"""Shapes built by name."""
import math


class Shape:
    def area(self):
        return 0.0


class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r ** 2


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side ** 2


def make(kind, size):
    """A shape of the named kind ("circle": size is the radius; "square": the side)."""
    return {"circle": Circle, "square": Square}[kind](size)
''')
open("tests/test_shapes.py", "w").write('''from a23lib.shapes import Circle, Square, make


def test_circle():
    assert isinstance(make("circle", 1), Circle)


def test_square():
    assert isinstance(make("square", 2), Square)
''')
