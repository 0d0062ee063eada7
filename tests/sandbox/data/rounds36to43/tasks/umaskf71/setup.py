open("a23lib/touch.py", "w").write('''"""Creating files."""
import os


def touch(path):
    """Create path empty if missing, with the default permissions (0o666 less the process umask)."""
    fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o666)
    os.close(fd)
''')
open("tests/test_touch.py", "w").write('''import os
import stat

from a23lib.touch import touch


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_default_mode(tmp_path):
    p = tmp_path / "f"
    touch(p)
    assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~current_umask()


def test_exists(tmp_path):
    p = tmp_path / "g"
    touch(p)
    assert p.exists()
''')
