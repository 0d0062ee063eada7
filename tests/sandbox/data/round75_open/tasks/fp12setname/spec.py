M = '''"""Validated attributes."""


class Positive:
    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, objtype=None):
        return getattr(obj, self.name)

    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError(f"{self.name[1:]} must be positive")
        setattr(obj, self.name, value)


class Box:
    width = Positive()
    height = Positive()

    def __init__(self, width, height):
        self.width = width
        self.height = height

    def area(self):
        return self.width * self.height
'''
TEST = '''import pytest

from a23lib.box import Box


def test_area():
    assert Box(2, 3).area() == 6


def test_bad_height():
    with pytest.raises(ValueError, match="height"):
        Box(2, -1)
'''
FILES = {"a23lib/box.py": M, "tests/test_box.py": TEST}
BUG = [("a23lib/box.py", '''    def __set_name__(self, owner, name):
        self.name = "_" + name
''', '''    name = "_value"
''')]
F2P = ["tests/test_box.py::test_area", "tests/test_box.py::test_bad_height"]
