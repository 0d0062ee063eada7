open("a23lib/money2.py", "w").write('''"""Amounts of money in cents."""


class Cents:
    """A whole number of cents."""

    def __init__(self, n):
        self.n = int(n)

    def _key(self):
        return self.n

    def __eq__(self, other):
        if not isinstance(other, Cents):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "Cents(%d)" % self.n


class Money:
    def __init__(self, cents, currency="EUR"):
        self.cents = Cents(cents)
        self.currency = currency

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return self.cents == other.cents and self.currency == other.currency

    def __hash__(self):
        return hash((self.cents, self.currency))

    def __repr__(self):
        return "Money(%r, %r)" % (self.cents.n, self.currency)


def parse(text):
    """"12.5 EUR" -> Money(1250, "EUR")."""
    number, currency = text.split()
    whole, _, frac = number.partition(".")
    frac = (frac + "00")[:2]
    return Money(int(whole) * 100 + int(frac), currency)
''')
open("tests/test_money2.py", "w").write('''from a23lib.money2 import Money, parse


def test_fraction():
    assert parse("12.5 EUR") == Money(1250, "EUR")


def test_whole():
    assert parse("3 USD") == Money(300, "USD")
''')
