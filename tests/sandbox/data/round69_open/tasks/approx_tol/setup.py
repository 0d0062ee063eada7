open("a23lib/finance.py", "w").write('''"""Finance."""


def future_value(principal, rate, years):
    """Value after compounding once a year."""
    return principal * (1 + rate) ** years
''')
open("tests/test_finance.py", "w").write('''import pytest

from a23lib.finance import future_value

CASES = [
    (1000, 0.05, 2, 1102.5),
    (500, 0.01, 10, 552.31),
    (200, 0.02, 3, 212.24),
]


@pytest.mark.parametrize("p,r,n,want", CASES)
def test_future_value(p, r, n, want):
    assert future_value(p, r, n) == pytest.approx(want, rel=1e-3)


def test_zero_years():
    assert future_value(100, 0.5, 0) == 100
''')
