open("a23lib/retry.py", "w").write('''"""Retrying calls."""
import logging

log = logging.getLogger("a23lib.retry")


def retry(fn, attempts=3):
    """fn()'s result, calling it up to `attempts` times; one warning per failed attempt, none on success."""
    for i in range(1, attempts + 1):
        try:
            return fn()
        except Exception as exc:
            log.warning("attempt %d failed: %s", i, exc)
            if i == attempts:
                raise
''')
open("tests/test_retry.py", "w").write('''import logging

import pytest

from a23lib.retry import retry


def flaky(fails):
    state = {"n": 0}

    def fn():
        state["n"] += 1
        if state["n"] <= fails:
            raise OSError("boom %d" % state["n"])
        return state["n"]
    return fn


def test_success_logs_nothing(caplog):
    caplog.set_level(logging.WARNING)
    assert retry(flaky(0)) == 1
    assert caplog.records == []


def test_one_warning_per_failure(caplog):
    caplog.set_level(logging.WARNING)
    assert retry(flaky(2)) == 3
    assert [r.getMessage() for r in caplog.records] == ["attempt 1 failed: boom 1", "attempt 2 failed: boom 2"]


def test_gives_up():
    with pytest.raises(OSError):
        retry(flaky(5), attempts=2)
''')
