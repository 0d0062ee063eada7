"""Checkout scenarios. Each simulates a slow payment-terminal round trip."""

import time

from ledger.models import Cart
from ledger.report import render

TERMINAL_LATENCY_S = 0.5


def _checkout(cart):
    time.sleep(TERMINAL_LATENCY_S)
    return cart.total


def test_discount_rounds_half_up():
    cart = Cart(discount_percent=10)
    cart.add("mug", "4.25")
    assert cart.discount == 43
    assert _checkout(cart) == 382


def test_discount_zero():
    cart = Cart()
    cart.add("mug", "4.25")
    assert _checkout(cart) == 425


def test_full_discount():
    cart = Cart(discount_percent=100)
    cart.add("mug", "4.25")
    assert _checkout(cart) == 0


def test_receipt_lines():
    cart = Cart(discount_percent=10)
    cart.add("mug", "4.25", 2)
    _checkout(cart)
    lines = render(cart, width=24).splitlines()
    assert lines[0] == "mug x2             $8.50"
    assert lines[-2] == "Discount 10%      -$0.85"
    assert lines[-1] == "Total              $7.65"
    assert all(len(line) == 24 for line in lines)
