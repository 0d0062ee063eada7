open("a23lib/invoice.py", "w").write('''"""Money in cents, and invoices that total it."""


class Money:
    """An amount in cents; adding an int adds cents."""

    def __init__(self, cents):
        self.cents = cents

    def __add__(self, other):
        if isinstance(other, Money):
            return Money(self.cents + other.cents)
        if isinstance(other, int):
            return Money(self.cents + other)
        return NotImplemented

    __radd__ = __add__

    def __eq__(self, other):
        return isinstance(other, Money) and self.cents == other.cents

    def __hash__(self):
        return hash(self.cents)


class Invoice:
    """Invoice lines plus shipping (in cents); two invoices are equal when they total the same."""

    def __init__(self, lines, shipping=0):
        self.lines = list(lines)
        self.shipping = shipping

    @property
    def total(self):
        return sum(self.lines, Money(0)) + self.shipping

    def __eq__(self, other):
        if not isinstance(other, Invoice):
            return NotImplemented
        return self.total == other.total
''')
open("tests/test_invoice.py", "w").write('''from a23lib.invoice import Invoice, Money


def test_shipping_in_cents():
    assert Invoice([Money(150), Money(250)], shipping=100) == Invoice([Money(500)])


def test_lines_only():
    assert Invoice([Money(100)]) == Invoice([Money(50), Money(50)])
''')
