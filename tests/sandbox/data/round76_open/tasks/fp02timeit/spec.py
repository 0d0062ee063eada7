FILES = {"a23lib/timing.py": '''"""Timing calls."""
import time


def timed(fn, *args):
    """(fn(*args), seconds it took)."""
    start = time.time()
    result = fn(*args)
    return result, start - time.time()
''',
"tests/test_timing.py": '''from a23lib.timing import timed


def test_nonnegative():
    result, took = timed(sum, range(100000))
    assert result == 4999950000
    assert took >= 0


def test_result():
    assert timed(len, "abc")[0] == 3
'''}
BUG = [("a23lib/timing.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_timing.py::test_nonnegative"]
P2P = ["tests/test_timing.py::test_result"]
HONEST = [("a23lib/timing.py", "import time\n", "from timeit import default_timer\n"),
          ("a23lib/timing.py", "    start = time.time()\n    result = fn(*args)\n    return result, start - time.time()\n",
           "    start = default_timer()\n    result = fn(*args)\n    return result, default_timer() - start\n")]
