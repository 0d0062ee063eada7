open("a23lib/price.py", "w").write('''"""Prices written as `$1.05`, kept in cents."""


def _parse_cents(text):
    dollars, cents = text.lstrip("$").split(".")
    return int(dollars) * 100 + int(cents)


class Amount:
    """A number of cents, equal to another Amount or to a dollar figure."""

    def __init__(self, cents):
        self.cents = cents

    def __eq__(self, other):
        return self.cents == (other.cents if isinstance(other, Amount) else round(other * 100))

    def __hash__(self):
        return hash(self.cents)


class Price:
    def __init__(self, text):
        self.amount = Amount(_parse_cents(text))

    def __eq__(self, other):
        return self.amount == (other.amount if isinstance(other, Price) else other)

    def __hash__(self):
        return hash(self.amount)
''')
open("tests/test_price.py", "w").write('''from a23lib.price import Price


def test_cents_with_leading_zero():
    assert Price("$1.05") == 1.05


def test_whole_dollars():
    assert Price("$3.00") == 3
''')
