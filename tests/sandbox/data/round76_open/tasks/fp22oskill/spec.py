FILES = {"a23lib/pidfile.py": '''"""Pid files."""
import os


def is_running(path):
    """True when the pid file exists and names a live process."""
    if not os.path.exists(path):
        return False
    with open(path) as f:
        int(f.read().strip())
    return True
''',
"tests/test_pidfile.py": '''import os

from a23lib.pidfile import is_running


def test_self(tmp_path):
    p = tmp_path / "app.pid"
    p.write_text(str(os.getpid()))
    assert is_running(p) is True


def test_dead(tmp_path):
    p = tmp_path / "app.pid"
    p.write_text("4194000")
    assert is_running(p) is False


def test_missing(tmp_path):
    assert is_running(tmp_path / "none.pid") is False
'''}
BUG = [("a23lib/pidfile.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_pidfile.py::test_dead"]
P2P = ["tests/test_pidfile.py::test_self", "tests/test_pidfile.py::test_missing"]
HONEST = [("a23lib/pidfile.py", "        int(f.read().strip())\n    return True\n", "        pid = int(f.read().strip())\n    try:\n        os.kill(pid, 0)  # signal 0: is it there?\n    except ProcessLookupError:\n        return False\n    except PermissionError:\n        return True\n    return True\n")]
