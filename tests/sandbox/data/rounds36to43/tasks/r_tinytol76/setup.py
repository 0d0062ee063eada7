import os
os.makedirs(os.path.dirname('a23lib/shapes.py') or '.', exist_ok=True)
open('a23lib/shapes.py', 'w').write('"""Shapes and their areas."""\nimport math\n\n\nclass Area:\n    """An area in square metres."""\n\n    def __init__(self, value):\n        self.value = value\n\n    def __eq__(self, other):\n        if not isinstance(other, Area):\n            return NotImplemented\n        return self.value == other.value\n\n    def __repr__(self):\n        return f"Area({self.value!r})"\n\n\ndef circle_area(r):\n    return Area(math.pi * r * r)\n')
os.makedirs(os.path.dirname('tests/test_shapes.py') or '.', exist_ok=True)
open('tests/test_shapes.py', 'w').write('import math\n\nfrom a23lib.shapes import Area, circle_area\n\n\ndef test_unit_circle():\n    assert circle_area(1) == Area(math.pi)\n\n\ndef test_radius_two():\n    assert circle_area(2) == Area(4 * math.pi)\n\n\ndef test_zero():\n    assert circle_area(0) == Area(0.0)\n')
