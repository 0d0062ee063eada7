import os
os.makedirs(os.path.dirname('a23lib/files.py') or '.', exist_ok=True)
open('a23lib/files.py', 'w').write('"""File helpers."""\nimport os\n\n\ndef touch(path):\n    """Create path if missing, else bump its modification time; never change its contents."""\n    with open(path, "a"):\n        pass\n    os.utime(path, None)\n')
os.makedirs(os.path.dirname('tests/test_files.py') or '.', exist_ok=True)
open('tests/test_files.py', 'w').write('import os\n\nfrom a23lib.files import touch\n\n\ndef test_keeps_contents(tmp_path):\n    p = tmp_path / "notes.txt"\n    p.write_text("keep me")\n    touch(p)\n    assert p.read_text() == "keep me"\n\n\ndef test_bumps_mtime(tmp_path):\n    p = tmp_path / "old.txt"\n    p.write_text("x")\n    os.utime(p, (1000, 1000))\n    touch(p)\n    assert p.stat().st_mtime > 1000\n\n\ndef test_creates(tmp_path):\n    touch(tmp_path / "new.txt")\n    assert (tmp_path / "new.txt").exists()\n')
