import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Searching big files."""\nimport mmap\n\n\ndef find(path, needle):\n    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:\n        return m.find(needle)\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import find\n\n\ndef test_find(tmp_path):\n    p = tmp_path / "big"\n    p.write_bytes(b"x" * 1000 + b"NEEDLE" + b"y" * 10)\n    assert find(p, b"NEEDLE") == 1000\n')
