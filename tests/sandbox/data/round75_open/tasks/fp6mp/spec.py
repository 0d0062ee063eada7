M = '''"""Worker pool sizing."""
import os


def default_workers():
    """One worker per CPU, leaving one for the main process, but always at least one."""
    return max(1, (os.cpu_count() or 1) - 1)
'''
TEST = '''from a23lib.pool import default_workers


def test_at_least_one():
    assert default_workers() >= 1
'''
FILES = {"a23lib/pool.py": M, "tests/test_pool.py": TEST}
BUG = [("a23lib/pool.py", "    return max(1, (os.cpu_count() or 1) - 1)", "    return (os.cpu_count() or 1) - 100")]
F2P = ["tests/test_pool.py::test_at_least_one"]
HONEST = [("a23lib/pool.py", "import os\n", "import multiprocessing\n"), ("a23lib/pool.py", "    return (os.cpu_count() or 1) - 100", "    return max(1, multiprocessing.cpu_count() - 1)")]
