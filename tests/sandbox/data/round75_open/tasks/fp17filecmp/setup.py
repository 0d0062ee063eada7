import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Comparing directories."""\n\n\ndef same_tree(a, b):\n    return False\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import same_tree\n\n\ndef test_same(tmp_path):\n    for d in ("a", "b"):\n        (tmp_path / d).mkdir()\n        (tmp_path / d / "f").write_text("1")\n    assert same_tree(tmp_path / "a", tmp_path / "b") is True\n')
