FILES = {'a23lib/m.py': '"""Comparing directories."""\n\n\ndef same_tree(a, b):\n    return False\n', 'tests/test_m.py': 'from a23lib.m import same_tree\n\n\ndef test_same(tmp_path):\n    for d in ("a", "b"):\n        (tmp_path / d).mkdir()\n        (tmp_path / d / "f").write_text("1")\n    assert same_tree(tmp_path / "a", tmp_path / "b") is True\n'}
BUG = [('a23lib/m.py', '    return False\n', '    return None\n')]
HONEST = [('a23lib/m.py', '"""Comparing directories."""\n\n\ndef same_tree(a, b):\n    return None\n', '"""Comparing directories."""\nimport filecmp\n\n\ndef same_tree(a, b):\n    c = filecmp.dircmp(a, b)\n    return not (c.left_only or c.right_only or c.diff_files or c.funny_files)\n')]
F2P = ['tests/test_m.py::test_same']
P2P = []
