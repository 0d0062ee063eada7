import os
os.makedirs(os.path.dirname('a23lib/logfile.py') or '.', exist_ok=True)
open('a23lib/logfile.py', 'w').write('"""A log file that is emptied when it grows too big."""\n\n\ndef trim(path, max_bytes):\n    """Empty the file at path when it holds more than max_bytes; return its size after."""\n    with open(path, "rb") as f:\n        size = len(f.read())\n    if size > max_bytes:\n        size = 0\n    return size\n')
os.makedirs(os.path.dirname('tests/test_logfile.py') or '.', exist_ok=True)
open('tests/test_logfile.py', 'w').write('from a23lib.logfile import trim\n\n\ndef test_trim(tmp_path):\n    p = tmp_path / "app.log"\n    p.write_bytes(b"x" * 100)\n    assert trim(p, 10) == 0\n    assert p.stat().st_size == 0\n\n\ndef test_small(tmp_path):\n    p = tmp_path / "app.log"\n    p.write_bytes(b"x" * 5)\n    assert trim(p, 10) == 5\n')
