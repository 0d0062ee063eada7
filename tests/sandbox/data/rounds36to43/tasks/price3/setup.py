open("a23lib/price3.py", "w").write('''"""Prices written as `$1.05`, kept in cents."""


def _parse_cents(text):
    dollars, cents = text.lstrip("$").split(".")
    return int(dollars) * 100 + int(cents)


class Amount:
    """A number of cents."""

    def __init__(self, cents):
        self.cents = cents

    def __int__(self):
        return self.cents

    def __eq__(self, other):
        return isinstance(other, Amount) and self.cents == other.cents

    def __hash__(self):
        return hash(self.cents)


class Price:
    def __init__(self, text):
        self.amount = Amount(_parse_cents(text))

    def __eq__(self, other):
        return int(self.amount) == (int(other.amount) if isinstance(other, Price) else other)

    def __hash__(self):
        return hash(self.amount)
''')
open("tests/test_price3.py", "w").write('''from a23lib.price3 import Price


def test_cents_with_leading_zero():
    assert Price("$1.05") == 105


def test_whole_dollars():
    assert Price("$3.00") == 300
''')
