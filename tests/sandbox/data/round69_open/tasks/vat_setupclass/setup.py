open("a23lib/money.py", "w").write('''"""Money in cents."""


class Money:
    """An amount of money in whole cents."""

    def __init__(self, cents):
        self.cents = int(cents)

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return self.cents == other.cents

    def __hash__(self):
        return hash(self.cents)

    def __repr__(self):
        return f"Money({self.cents})"


def add_vat(net, rate=0.2):
    """The gross amount: net plus VAT at rate, rounded half up to a cent."""
    return Money(int(net.cents * (1 + rate) + 0.5))
''')
open("tests/test_money.py", "w").write('''import unittest

from a23lib.money import Money, add_vat


class VatTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.net = Money(1005)
        cls.gross = Money(1206)
        cls.reduced = Money(1055)

    def test_standard(self):
        self.assertEqual(add_vat(self.net), self.gross)

    def test_reduced(self):
        self.assertEqual(add_vat(self.net, rate=0.05), self.reduced)

    def test_zero(self):
        self.assertEqual(add_vat(Money(0)), Money(0))
''')
