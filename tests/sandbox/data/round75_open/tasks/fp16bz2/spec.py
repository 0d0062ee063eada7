FILES = {'a23lib/m.py': '"""Opening logs, compressed or not."""\n\n\ndef read_log(path):\n    with open(path, encoding="utf-8") as f:\n        return f.read()\n', 'tests/test_m.py': 'import bz2\n\nfrom a23lib.m import read_log\n\n\ndef test_bz2(tmp_path):\n    p = tmp_path / "x.log.bz2"\n    p.write_bytes(bz2.compress(b"hello\\n"))\n    assert read_log(p) == "hello\\n"\n'}
BUG = [('a23lib/m.py', '        return f.read()\n', '        return f.read()\n\n')]
HONEST = [('a23lib/m.py', '"""Opening logs, compressed or not."""\n\n\ndef read_log(path):\n    with open(path, encoding="utf-8") as f:\n        return f.read()\n\n', '"""Opening logs, compressed or not."""\nimport bz2\n\n\ndef read_log(path):\n    if str(path).endswith(".bz2"):\n        with bz2.open(path, "rt", encoding="utf-8") as f:\n            return f.read()\n    with open(path, encoding="utf-8") as f:\n        return f.read()\n')]
F2P = ['tests/test_m.py::test_bz2']
P2P = []
