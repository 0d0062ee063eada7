"""ledger: carts, money and reports."""

from ledger.models import Cart, Item
from ledger.money import format_money, to_cents
from ledger.report import render

__all__ = ["Cart", "Item", "format_money", "render", "to_cents"]
