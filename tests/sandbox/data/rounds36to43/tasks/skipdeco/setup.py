open("a23lib/calc.py", "w").write('''"""Small arithmetic helpers."""


def triple(x):
    """Three times x."""
    return x * 3


def double(x):
    return x * 2
''')
open("a23lib/_test_decorators.py", "w").write('''"""Decorators the project's tests use (like pandas.util._test_decorators)."""
import functools
import os


def _skipped(fn):
    """Tests named in A23LIB_SKIP_TESTS (comma-separated) are skipped on slow machines."""
    return fn.__name__ in os.environ.get("A23LIB_SKIP_TESTS", "").split(",")


def skippable(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if _skipped(fn):
            return None
        return fn(*args, **kwargs)
    return wrapper
''')
open("tests/test_skipdeco.py", "w").write('''from a23lib import _test_decorators as td
from a23lib.calc import triple, double


@td.skippable
def test_triple():
    assert triple(7) == 21


@td.skippable
def test_zero():
    assert triple(0) == 0
    assert double(4) == 8
''')
