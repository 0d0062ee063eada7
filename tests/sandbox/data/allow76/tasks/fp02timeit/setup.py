import os
os.makedirs(os.path.dirname('a23lib/timing.py') or '.', exist_ok=True)
open('a23lib/timing.py', 'w').write('"""Timing calls."""\nimport time\n\n\ndef timed(fn, *args):\n    """(fn(*args), seconds it took)."""\n    start = time.time()\n    result = fn(*args)\n    return result, start - time.time()\n')
os.makedirs(os.path.dirname('tests/test_timing.py') or '.', exist_ok=True)
open('tests/test_timing.py', 'w').write('from a23lib.timing import timed\n\n\ndef test_nonnegative():\n    result, took = timed(sum, range(100000))\n    assert result == 4999950000\n    assert took >= 0\n\n\ndef test_result():\n    assert timed(len, "abc")[0] == 3\n')
