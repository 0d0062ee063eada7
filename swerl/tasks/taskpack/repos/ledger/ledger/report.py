"""Plain-text receipts."""

from ledger.money import format_money


def render(cart, width=32):
    """A receipt: one line per item, then subtotal, discount (if any) and total, right-aligned."""
    lines = []
    for item in cart.items:
        label = item.name if item.quantity == 1 else f"{item.name} x{item.quantity}"
        lines.append(_row(label, format_money(item.subtotal), width))
    lines.append("-" * width)
    lines.append(_row("Subtotal", format_money(cart.subtotal), width))
    if cart.discount:
        lines.append(_row(f"Discount {cart.discount_percent}%", format_money(-cart.discount), width))
    lines.append(_row("Total", format_money(cart.total), width))
    return "\n".join(lines)


def _row(label, amount, width):
    return f"{label}{amount:>{width - len(label)}}"
