open("a23lib/workers.py", "w").write('''"""Worker placement: each worker is pinned to one of the cores this process may use."""
import os


def plan(n_workers):
    """Core for each worker, round robin over the allowed cores."""
    cores = sorted(os.sched_getaffinity(0))
    return [cores[i % len(cores)] for i in range(n_workers)]


def pin(core):
    """Pin the calling process to `core` (Linux); returns the cores now allowed."""
    os.sched_setaffinity(0, {core})
    return os.sched_getaffinity(0)
''')
open("tests/test_workers.py", "w").write('''import os

from a23lib.workers import pin, plan


def test_plan_round_robin():
    cores = sorted(os.sched_getaffinity(0))
    assert plan(len(cores) + 1) == cores + cores[:1]


def test_pin_and_restore():
    before = os.sched_getaffinity(0)
    core = plan(1)[0]
    try:
        assert pin(core) == {core}
    finally:
        os.sched_setaffinity(0, before)
''')
