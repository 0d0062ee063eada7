open("a23lib/price.py", "w").write('''"""Unit prices."""
from decimal import Decimal


def unit_price(total, quantity):
    """The price of one item, as a Decimal with the context's precision."""
    return Decimal(total) / Decimal(quantity)


def with_tax(amount, rate="0.2"):
    return Decimal(amount) * (1 + Decimal(rate))
''')
open("tests/test_price.py", "w").write('''from decimal import Decimal

import pytest

from a23lib.price import unit_price, with_tax


@pytest.mark.parametrize("total,qty", [("10", 3), ("1", 7), ("100.00", 6), ("2.50", 4)])
def test_unit_price(total, qty):
    assert unit_price(total, qty) == Decimal(total) / qty


def test_with_tax():
    assert with_tax("10") == Decimal("12.0")
''')
