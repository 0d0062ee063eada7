import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""One writer at a time."""\n\n\ndef append_locked(path, line):\n    with open(path, "a", encoding="utf-8") as f:\n        f.write(line)\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import append_locked\n\n\ndef test_lines(tmp_path):\n    p = tmp_path / "x"\n    append_locked(p, "a")\n    append_locked(p, "b")\n    assert p.read_text() == "a\\nb\\n"\n')
