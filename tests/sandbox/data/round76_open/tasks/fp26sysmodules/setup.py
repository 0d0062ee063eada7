import os
os.makedirs(os.path.dirname('a23lib/arrays.py') or '.', exist_ok=True)
open('a23lib/arrays.py', 'w').write('"""Turning values into plain lists."""\n\n\ndef to_list(value):\n    """A plain list of value\'s items; numpy arrays (only if numpy is already loaded) through tolist()."""\n    return list(value)\n')
os.makedirs(os.path.dirname('tests/test_arrays.py') or '.', exist_ok=True)
open('tests/test_arrays.py', 'w').write('from a23lib.arrays import to_list\n\n\nclass FakeArray:\n    def __init__(self, rows):\n        self.rows = rows\n\n    def tolist(self):\n        return [list(r) for r in self.rows]\n\n    def __iter__(self):\n        return iter(self.rows)\n\n\ndef test_nested_tuple():\n    assert to_list((1, 2)) == [1, 2]\n\n\ndef test_tolist_objects():\n    assert to_list(FakeArray([(1, 2)])) == [[1, 2]]\n')
