"""Items and carts."""

from dataclasses import dataclass, field

from ledger.money import to_cents


@dataclass(frozen=True)
class Item:
    name: str
    price_cents: int
    quantity: int = 1

    def __post_init__(self):
        if self.quantity < 1:
            raise ValueError("quantity must be at least 1")
        if self.price_cents < 0:
            raise ValueError("price must not be negative")

    @property
    def subtotal(self):
        return self.price_cents * self.quantity


@dataclass
class Cart:
    items: list = field(default_factory=list)
    discount_percent: int = 0

    def add(self, name, price, quantity=1):
        """Add an item priced in currency units (e.g. "2.50")."""
        self.items.append(Item(name, to_cents(price), quantity))

    @property
    def subtotal(self):
        return sum(item.subtotal for item in self.items)

    @property
    def discount(self):
        """Discount in cents, rounded half up."""
        return (self.subtotal * self.discount_percent + 50) // 100

    @property
    def total(self):
        return self.subtotal - self.discount
