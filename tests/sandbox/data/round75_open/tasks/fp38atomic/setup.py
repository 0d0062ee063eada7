import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Saving settings."""\nimport json\nimport os\nimport tempfile\n\n\ndef save(path, data):\n    """Atomically: readers never see half a file."""\n    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), suffix=".tmp")\n    with os.fdopen(fd, "w", encoding="utf-8") as f:\n        json.dump(data, f)\n        f.flush()\n        os.fsync(f.fileno())\n    os.replace(tmp, path)\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import json\n\nfrom a23lib.m import save\n\n\ndef test_saved(tmp_path):\n    p = tmp_path / "s.json"\n    save(p, {"a": 1})\n    assert json.loads(p.read_text()) == {"a": 1}\n')
