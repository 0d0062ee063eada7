M = '''"""Backups that keep a file's times."""
import shutil


def backup(src, dst):
    shutil.copyfile(src, dst)
    shutil.copystat(src, dst)
    return dst
'''
TEST = '''import os

from a23lib.backup import backup


def test_mtime_kept(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text("hi")
    os.utime(src, (1_000_000_000, 1_000_000_000))
    dst = backup(src, tmp_path / "b.txt")
    assert os.stat(dst).st_mtime == 1_000_000_000
    assert dst.read_text() == "hi"
'''
FILES = {"a23lib/backup.py": M, "tests/test_backup.py": TEST}
BUG = [("a23lib/backup.py", "    shutil.copystat(src, dst)\n", "")]
F2P = ["tests/test_backup.py::test_mtime_kept"]
HONEST = [("a23lib/backup.py", "    shutil.copyfile(src, dst)\n", "    shutil.copyfile(src, dst)\n    shutil.copystat(src, dst)  # keep the times and mode\n")]
