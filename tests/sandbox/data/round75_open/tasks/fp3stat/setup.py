import os
os.makedirs(os.path.dirname('a23lib/backup.py') or '.', exist_ok=True)
open('a23lib/backup.py', 'w').write('"""Backups that keep a file\'s times."""\nimport shutil\n\n\ndef backup(src, dst):\n    shutil.copyfile(src, dst)\n    shutil.copystat(src, dst)\n    return dst\n')
os.makedirs(os.path.dirname('tests/test_backup.py') or '.', exist_ok=True)
open('tests/test_backup.py', 'w').write('import os\n\nfrom a23lib.backup import backup\n\n\ndef test_mtime_kept(tmp_path):\n    src = tmp_path / "a.txt"\n    src.write_text("hi")\n    os.utime(src, (1_000_000_000, 1_000_000_000))\n    dst = backup(src, tmp_path / "b.txt")\n    assert os.stat(dst).st_mtime == 1_000_000_000\n    assert dst.read_text() == "hi"\n')
