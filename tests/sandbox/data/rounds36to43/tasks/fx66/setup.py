open("a23lib/fx.py", "w").write('''"""Currency conversion in minor units."""

from decimal import ROUND_HALF_UP, Decimal


def convert(cents, src, dst, rates):
    """`cents` of `src` in `dst` at `rates.rate(src, dst)`, rounded half up to a whole minor unit."""
    value = Decimal(cents) * Decimal(str(rates.rate(src, dst)))
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))
''')
open("tests/test_fx.py", "w").write('''import pytest

from a23lib.fx import convert


class FakeRates:
    """A fixed rate table standing in for the rates service."""

    def __init__(self, table):
        self.table = table

    def rate(self, src, dst):
        return self.table[(src, dst)]


RATES = FakeRates({("EUR", "USD"): 1.0837, ("USD", "JPY"): 151.25, ("GBP", "EUR"): 1.1694})

CASES = [
    (1000, "EUR", "USD", 1084),
    (333, "EUR", "USD", 361),
    (199, "USD", "JPY", 30099),
    (250, "GBP", "EUR", 292),
]


@pytest.mark.parametrize("cents,src,dst,want", CASES)
def test_convert(cents, src, dst, want):
    assert convert(cents, src, dst, RATES) == want


def test_zero():
    assert convert(0, "EUR", "USD", RATES) == 0
''')
