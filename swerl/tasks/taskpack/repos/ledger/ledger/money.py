"""Money as integer cents; rounding is half-up, as on a till receipt."""

from decimal import ROUND_HALF_UP, Decimal


def to_cents(amount):
    """Convert a decimal amount (str, int or Decimal) to integer cents, rounding half up."""
    value = Decimal(str(amount)) * 100
    return int(value.quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def format_money(cents, currency="$"):
    """`1234` -> `$12.34`; negative amounts get a leading minus: `-$0.50`."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{currency}{cents // 100}.{cents % 100:02d}"
