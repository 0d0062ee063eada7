import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Deduplicating files."""\nimport os\n\n\ndef dedupe(keep, dup):\n    """Replace `dup` by a hard link to `keep` (same contents, one copy on disk)."""\n    os.remove(dup)\n    os.link(keep, dup)\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import os\n\nfrom a23lib.m import dedupe\n\n\ndef test_same_inode(tmp_path):\n    a, b = tmp_path / "a", tmp_path / "b"\n    a.write_text("x")\n    b.write_text("x")\n    dedupe(a, b)\n    assert os.stat(a).st_ino == os.stat(b).st_ino\n')
