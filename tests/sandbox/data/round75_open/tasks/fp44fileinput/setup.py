import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Concatenating inputs."""\nimport fileinput\n\n\ndef read_all(paths):\n    with fileinput.input(files=paths, encoding="utf-8") as f:\n        return "".join(f)\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import read_all\n\n\ndef test_it(tmp_path):\n    a, b = tmp_path / "a", tmp_path / "b"\n    a.write_text("1\\n")\n    b.write_text("2\\n")\n    assert read_all([str(a), str(b)]) == "1\\n2\\n"\n')
