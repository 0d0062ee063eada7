import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Reading .xz files."""\nimport lzma\n\n\ndef read_xz(path):\n    with lzma.open(path) as f:\n        return f.read()\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import lzma\n\nfrom a23lib.m import read_xz\n\n\ndef test_it(tmp_path):\n    p = tmp_path / "d.xz"\n    p.write_bytes(lzma.compress(b"data"))\n    assert read_xz(p) == b"data"\n')
