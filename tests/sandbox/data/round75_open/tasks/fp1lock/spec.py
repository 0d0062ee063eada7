M = '''"""A lock file holding the owner's pid."""
import os


def acquire(path):
    """Create the lock file; False if someone holds it."""
    if os.path.exists(path):
        return False
    with open(path, "w") as f:
        f.write(str(os.getpid()))
    return True
'''
TEST = '''import os

from a23lib.lock import acquire


def test_second_acquire_fails(tmp_path):
    p = tmp_path / "x.lock"
    assert acquire(p) is True
    assert acquire(p) is False


def test_holds_pid(tmp_path):
    p = tmp_path / "x.lock"
    acquire(p)
    assert p.read_text() == str(os.getpid())
'''
FILES = {"a23lib/lock.py": M, "tests/test_lock.py": TEST}
BUG = [("a23lib/lock.py", "    if os.path.exists(path):\n        return False\n", "")]
F2P = ["tests/test_lock.py::test_second_acquire_fails"]
P2P = ["tests/test_lock.py::test_holds_pid"]
HONEST = [("a23lib/lock.py", '''    with open(path, "w") as f:
        f.write(str(os.getpid()))
    return True''', '''    try:  # atomic: no window between the check and the create
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    try:
        os.write(fd, str(os.getpid()).encode())
    finally:
        os.close(fd)
    return True''')]
