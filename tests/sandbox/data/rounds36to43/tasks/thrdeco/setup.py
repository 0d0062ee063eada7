open("a23lib/calc.py", "w").write('''"""Small arithmetic helpers."""


def triple(x):
    """Three times x."""
    return x * 3


def double(x):
    return x * 2
''')
open("a23lib/_test_decorators.py", "w").write('''"""Decorators the project's tests use."""
import functools
import threading


def timeout(seconds):
    """Fail a test that runs longer than `seconds`: it runs on a worker thread the caller joins."""
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            box = {}

            def target():
                try:
                    box["value"] = fn(*args, **kwargs)
                except BaseException as exc:  # handed back to the caller's thread
                    box["error"] = exc

            t = threading.Thread(target=target, daemon=True)
            t.start()
            t.join(seconds)
            if t.is_alive():
                raise TimeoutError(f"{fn.__name__} took longer than {seconds} s")
            if "error" in box:
                raise box["error"]
            return box.get("value")
        return wrapper
    return deco
''')
open("tests/test_thrdeco.py", "w").write('''from a23lib._test_decorators import timeout
from a23lib.calc import triple, double


@timeout(10)
def test_triple():
    assert triple(7) == 21


@timeout(10)
def test_zero():
    assert triple(0) == 0
    assert double(4) == 8
''')
