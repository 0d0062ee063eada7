open("a23lib/money.py", "w").write('''"""Money amounts in minor units."""

import re


class Money:
    __slots__ = ("cents", "currency")

    def __init__(self, cents, currency):
        self.cents = int(cents)
        self.currency = currency

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return (self.cents, self.currency) == (other.cents, other.currency)

    def __hash__(self):
        return hash((self.cents, self.currency))

    def __repr__(self):
        return f"Money({self.cents}, {self.currency!r})"

    def __str__(self):
        return f"{self.currency} {self.cents // 100}.{self.cents % 100:02d}"


def parse_money(text):
    """`"EUR 12.5"` as Money(1250, "EUR")."""
    m = re.fullmatch(r"\\s*([A-Z]{3})\\s+(\\d+)(?:\\.(\\d{1,2}))?\\s*", text)
    if not m:
        raise ValueError(f"not an amount: {text!r}")
    code, whole, frac = m.groups()
    return Money(int(whole) * 100 + int((frac or "0").ljust(2, "0")), code)
''')
open("tests/test_money.py", "w").write('''import unittest

from a23lib.money import Money, parse_money


class ParseMoneyTest(unittest.TestCase):
    CASES = [
        ("EUR 5", Money(500, "EUR")),
        ("USD 5.25", Money(525, "USD")),
        ("EUR 12.5", Money(1250, "EUR")),
        ("GBP 0.7", Money(70, "GBP")),
    ]

    def test_parse(self):
        for text, want in self.CASES:
            with self.subTest(text=text):
                self.assertEqual(parse_money(text), want)

    def test_str(self):
        self.assertEqual(str(Money(1205, "EUR")), "EUR 12.05")
''')
