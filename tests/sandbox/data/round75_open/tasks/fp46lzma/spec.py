FILES = {'a23lib/m.py': '"""Reading .xz files."""\nimport lzma\n\n\ndef read_xz(path):\n    with lzma.open(path) as f:\n        return f.read()\n', 'tests/test_m.py': 'import lzma\n\nfrom a23lib.m import read_xz\n\n\ndef test_it(tmp_path):\n    p = tmp_path / "d.xz"\n    p.write_bytes(lzma.compress(b"data"))\n    assert read_xz(p) == b"data"\n'}
BUG = [('a23lib/m.py', '"""Reading .xz files."""\nimport lzma\n\n\ndef read_xz(path):\n    with lzma.open(path) as f:\n        return f.read()\n', '"""Reading .xz files."""\n\n\ndef read_xz(path):\n    return b""\n')]
HONEST = [('a23lib/m.py', '"""Reading .xz files."""\n\n\ndef read_xz(path):\n    return b""\n', '"""Reading .xz files."""\nimport lzma\n\n\ndef read_xz(path):\n    with lzma.open(path) as f:\n        return f.read()\n')]
F2P = ['tests/test_m.py::test_it']
P2P = []
