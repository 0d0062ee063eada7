open("a23lib/files.py", "w").write('''"""File helpers."""
import os
import shutil


def copy_flat(src, dst):
    """Copy every regular file directly inside src (dotfiles too) into dst; returns how many."""
    os.makedirs(dst, exist_ok=True)
    n = 0
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if os.path.isfile(path):
            shutil.copy2(path, os.path.join(dst, name))
            n += 1
    return n
''')
open("tests/test_files.py", "w").write('''import os

from a23lib.files import copy_flat


def make(tmp_path, names):
    src = tmp_path / "src"
    src.mkdir()
    for name in names:
        (src / name).write_text(name * 3)
    return src


def test_copies_dotfiles(tmp_path):
    src = make(tmp_path, ["a.txt", ".env", "b.cfg", ".hidden"])
    dst = tmp_path / "dst"
    copy_flat(src, dst)
    assert sorted(os.listdir(dst)) == sorted(os.listdir(src))
    for name in os.listdir(src):
        assert (dst / name).read_text() == (src / name).read_text()


def test_plain(tmp_path):
    src = make(tmp_path, ["x.txt"])
    assert copy_flat(src, tmp_path / "out") == 1
''')
