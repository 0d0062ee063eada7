M = '''"""Sizes of open files."""
import os


def open_size(f):
    """Size in bytes of the file open as `f`, wherever its position is."""
    return os.fstat(f.fileno()).st_size
'''
TEST = '''from a23lib.sizes import open_size


def test_size_after_partial_read(tmp_path):
    p = tmp_path / "d.bin"
    p.write_bytes(b"x" * 50)
    with open(p, "rb") as f:
        f.read(10)
        assert open_size(f) == 50
'''
FILES = {"a23lib/sizes.py": M, "tests/test_sizes.py": TEST}
BUG = [("a23lib/sizes.py", "    return os.fstat(f.fileno()).st_size", "    return len(f.read())")]
F2P = ["tests/test_sizes.py::test_size_after_partial_read"]
HONEST = [("a23lib/sizes.py", "    return len(f.read())", "    return os.fstat(f.fileno()).st_size")]
