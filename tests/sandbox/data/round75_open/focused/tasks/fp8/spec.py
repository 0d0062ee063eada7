PATHS = '''"""Path helpers."""
import os


def is_inside(path, base):
    """True when `path` is `base` or lies below it (no prefix confusion: /tmpx is not inside /tmp)."""
    path, base = os.path.normpath(path), os.path.normpath(base)
    return path == base or path.startswith(base.rstrip(os.sep) + os.sep)
'''
TEST = '''import os
import tempfile

import pytest

from a23lib.paths import is_inside


@pytest.mark.parametrize("base", [tempfile.gettempdir(), "/usr"])
def test_inside(base):
    assert is_inside(os.path.join(base, "x", "y"), base)
    assert not is_inside(base + "x", base)
'''
FILES = {"a23lib/paths.py": PATHS, "tests/test_paths.py": TEST}
BUG = [("a23lib/paths.py", "path.startswith(base.rstrip(os.sep) + os.sep)", "path.startswith(base)")]
F2P = ["tests/test_paths.py::test_inside[/tmp]", "tests/test_paths.py::test_inside[/usr]"]
P2P = []
