import pytest

from ledger.models import Cart, Item


def test_item_subtotal():
    assert Item("pen", 150, 3).subtotal == 450


def test_item_bad_quantity():
    with pytest.raises(ValueError):
        Item("pen", 150, 0)


def test_cart_total():
    cart = Cart()
    cart.add("pen", "1.50", 2)
    cart.add("book", "12.00")
    assert cart.total == 1500
