open("a23lib/money.py", "w").write('''"""Money amounts in minor units (cents)."""


class Money:
    __slots__ = ("cents", "currency")

    def __init__(self, cents, currency="EUR"):
        self.cents = int(cents)
        self.currency = currency

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return (self.cents, self.currency) == (other.cents, other.currency)

    def __hash__(self):
        return hash((self.cents, self.currency))

    def __repr__(self):
        return "Money(%d, %r)" % (self.cents, self.currency)

    def __add__(self, other):
        if other.currency != self.currency:
            raise ValueError("currency mismatch")
        return Money(self.cents + other.cents, self.currency)

    def __mul__(self, n):
        return Money(self.cents * n, self.currency)


def parse(text):
    amount, currency = text.split()
    whole, _, frac = amount.partition(".")
    return Money(int(whole) * 100 + int((frac + "00")[:2]), currency)


def fmt(m):
    return "%d.%02d %s" % (m.cents // 100, m.cents % 100, m.currency)


def total(lines, currency="EUR"):
    """Sum of price * quantity over (price, quantity) lines."""
    result = Money(0, currency)
    for price, qty in lines:
        result = result + price * qty
    return result
''')
open("tests/test_money.py", "w").write('''from a23lib.money import Money, parse, fmt, total


def test_total():
    assert total([(Money(150), 2), (Money(25), 4)]) == Money(400)


def test_total_text():
    assert fmt(total([(parse("1.50 EUR"), 3)])) == "4.50 EUR"


def test_parse():
    assert parse("1.50 EUR") == Money(150, "EUR")
    assert parse("2 USD") != Money(200, "EUR")


def test_fmt():
    assert fmt(Money(1234, "USD")) == "12.34 USD"
''')
