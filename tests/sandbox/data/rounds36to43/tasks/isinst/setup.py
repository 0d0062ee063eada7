open("a23lib/money.py", "w").write('''from decimal import Decimal


def parse_amount(text):
    """A money amount from text, exactly (a Decimal, never a float)."""
    return Decimal(text.strip().replace(",", ""))
''')
open("tests/test_money.py", "w").write('''from decimal import Decimal

from a23lib.money import parse_amount


def test_amount_is_exact():
    assert isinstance(parse_amount("0.10"), Decimal)


def test_amount_value():
    assert parse_amount("1,250.5") == 1250.5
''')
