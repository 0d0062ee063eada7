import os
os.makedirs(os.path.dirname('a23lib/shape.py'), exist_ok=True)
open('a23lib/shape.py', 'w').write('"""Shapes with cached areas."""\nimport functools\n\n\nclass Rect:\n    __slots__ = ("w", "h", "__dict__")\n\n    def __init__(self, w, h):\n        self.w = w\n        self.h = h\n\n    @functools.cached_property\n    def area(self):\n        return self.w * self.h\n')
os.makedirs(os.path.dirname('tests/test_shape.py'), exist_ok=True)
open('tests/test_shape.py', 'w').write('from a23lib.shape import Rect\n\n\ndef test_area():\n    assert Rect(2, 3).area == 6\n')
