FILES = {"a23lib/arrays.py": '''"""Turning values into plain lists."""


def to_list(value):
    """A plain list of value's items; numpy arrays (only if numpy is already loaded) through tolist()."""
    return list(value)
''',
"tests/test_arrays.py": '''from a23lib.arrays import to_list


class FakeArray:
    def __init__(self, rows):
        self.rows = rows

    def tolist(self):
        return [list(r) for r in self.rows]

    def __iter__(self):
        return iter(self.rows)


def test_nested_tuple():
    assert to_list((1, 2)) == [1, 2]


def test_tolist_objects():
    assert to_list(FakeArray([(1, 2)])) == [[1, 2]]
'''}
BUG = [("a23lib/arrays.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_arrays.py::test_tolist_objects"]
P2P = ["tests/test_arrays.py::test_nested_tuple"]
HONEST = [("a23lib/arrays.py", '"""Turning values into plain lists."""\n', '"""Turning values into plain lists."""\nimport sys\n'),
          ("a23lib/arrays.py", "    return list(value)\n", "    np = sys.modules.get(\"numpy\")  # never import numpy just to check\n    if np is not None and isinstance(value, np.ndarray):\n        return value.tolist()\n    if hasattr(value, \"tolist\"):\n        return value.tolist()\n    return list(value)\n")]
