FILES = {'a23lib/m.py': '"""Deduplicating files."""\nimport os\n\n\ndef dedupe(keep, dup):\n    """Replace `dup` by a hard link to `keep` (same contents, one copy on disk)."""\n    os.remove(dup)\n    os.link(keep, dup)\n', 'tests/test_m.py': 'import os\n\nfrom a23lib.m import dedupe\n\n\ndef test_same_inode(tmp_path):\n    a, b = tmp_path / "a", tmp_path / "b"\n    a.write_text("x")\n    b.write_text("x")\n    dedupe(a, b)\n    assert os.stat(a).st_ino == os.stat(b).st_ino\n'}
BUG = [('a23lib/m.py', '    os.link(keep, dup)\n', "    open(dup, 'w').write(open(keep).read())\n")]
HONEST = [('a23lib/m.py', "    open(dup, 'w').write(open(keep).read())\n", '    os.link(keep, dup)\n')]
F2P = ['tests/test_m.py::test_same_inode']
P2P = []
