FILES = {'a23lib/m.py': '"""One writer at a time."""\n\n\ndef append_locked(path, line):\n    with open(path, "a", encoding="utf-8") as f:\n        f.write(line)\n', 'tests/test_m.py': 'from a23lib.m import append_locked\n\n\ndef test_lines(tmp_path):\n    p = tmp_path / "x"\n    append_locked(p, "a")\n    append_locked(p, "b")\n    assert p.read_text() == "a\\nb\\n"\n'}
BUG = [('a23lib/m.py', '        f.write(line)\n', '        f.write(line)\n\n')]
HONEST = [('a23lib/m.py', '"""One writer at a time."""\n\n\ndef append_locked(path, line):\n    with open(path, "a", encoding="utf-8") as f:\n        f.write(line)\n\n', '"""One writer at a time."""\nimport fcntl\n\n\ndef append_locked(path, line):\n    with open(path, "a", encoding="utf-8") as f:\n        fcntl.flock(f, fcntl.LOCK_EX)  # concurrent writers append whole lines\n        try:\n            f.write(line + "\\n")\n        finally:\n            fcntl.flock(f, fcntl.LOCK_UN)\n')]
F2P = ['tests/test_m.py::test_lines']
P2P = []
