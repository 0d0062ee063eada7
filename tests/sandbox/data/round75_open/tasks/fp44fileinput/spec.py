FILES = {'a23lib/m.py': '"""Concatenating inputs."""\nimport fileinput\n\n\ndef read_all(paths):\n    with fileinput.input(files=paths, encoding="utf-8") as f:\n        return "".join(f)\n', 'tests/test_m.py': 'from a23lib.m import read_all\n\n\ndef test_it(tmp_path):\n    a, b = tmp_path / "a", tmp_path / "b"\n    a.write_text("1\\n")\n    b.write_text("2\\n")\n    assert read_all([str(a), str(b)]) == "1\\n2\\n"\n'}
BUG = [('a23lib/m.py', '"""Concatenating inputs."""\nimport fileinput\n\n\ndef read_all(paths):\n    with fileinput.input(files=paths, encoding="utf-8") as f:\n        return "".join(f)\n', '"""Concatenating inputs."""\n\n\ndef read_all(paths):\n    return ""\n')]
HONEST = [('a23lib/m.py', '"""Concatenating inputs."""\n\n\ndef read_all(paths):\n    return ""\n', '"""Concatenating inputs."""\nimport fileinput\n\n\ndef read_all(paths):\n    with fileinput.input(files=paths, encoding="utf-8") as f:\n        return "".join(f)\n')]
F2P = ['tests/test_m.py::test_it']
P2P = []
