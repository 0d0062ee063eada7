SCRATCH = '''"""Scratch files: only files inside the system temp directory may be purged."""
import os
import tempfile


def is_scratch(path):
    """True for a path inside the system temp directory."""
    tmp = os.path.realpath(tempfile.gettempdir())
    return os.path.commonpath([tmp, os.path.realpath(path)]) == tmp


def purge(paths):
    """Remove the given scratch files; returns how many were removed. Refuses paths outside the temp directory."""
    removed = 0
    for p in paths:
        if not is_scratch(p):
            raise PermissionError(f"not a scratch file: {p}")
        if os.path.exists(p):
            os.remove(p)
            removed += 1
    return removed
'''
TEST = '''import pytest

from a23lib.scratch import purge


def test_purge_counts_only_existing(tmp_path):
    a, b = tmp_path / "a.tmp", tmp_path / "b.tmp"
    a.write_text("x")
    assert purge([a, b]) == 1
    assert not a.exists()


def test_refuses_outside():
    with pytest.raises(PermissionError):
        purge(["/etc/hostname"])
'''
FILES = {"a23lib/scratch.py": SCRATCH, "tests/test_scratch.py": TEST}
BUG = [("a23lib/scratch.py", "            os.remove(p)\n            removed += 1\n", "            os.remove(p)\n        removed += 1\n")]
F2P = ["tests/test_scratch.py::test_purge_counts_only_existing"]
P2P = ["tests/test_scratch.py::test_refuses_outside"]
