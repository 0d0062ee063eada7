M = '''"""Running code in another directory."""
import contextlib
import os


@contextlib.contextmanager
def pushd(path):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield path
    finally:
        os.chdir(old)
'''
TEST = '''import os

import pytest

from a23lib.dirs import pushd


def test_restores_after_error(tmp_path):
    here = os.getcwd()
    with pytest.raises(RuntimeError):
        with pushd(tmp_path):
            raise RuntimeError("boom")
    assert os.getcwd() == here
'''
FILES = {"a23lib/dirs.py": M, "tests/test_dirs.py": TEST}
BUG = [("a23lib/dirs.py", "    try:\n        yield path\n    finally:\n        os.chdir(old)\n", "    yield path\n    os.chdir(old)\n")]
F2P = ["tests/test_dirs.py::test_restores_after_error"]
