open("a23lib/money.py", "w").write('''"""Money formatting."""
import contextlib

_STATE = {"places": 2}


@contextlib.contextmanager
def places(n):
    """Format with n decimal places inside the block."""
    old = _STATE["places"]
    _STATE["places"] = n
    try:
        yield
    finally:
        _STATE["places"] = old


def fmt(cents):
    """An amount in cents as text, e.g. 1234 -> '12.34'."""
    value = cents / 100
    return f"{value:,.{_STATE['places']}f}"
''')
open("tests/test_money.py", "w").write('''from a23lib.money import fmt, places


def test_default():
    assert fmt(1234) == "12.34"


def test_thousands():
    assert fmt(123456789) == "1,234,567.89"


def test_places():
    with places(1):
        assert fmt(1250) == "12.5"
    with places(3):
        assert fmt(1) == "0.010"
''')
