from ledger.money import format_money, to_cents


def test_to_cents_simple():
    assert to_cents("12.34") == 1234


def test_to_cents_half_up():
    assert to_cents("0.125") == 13


def test_to_cents_half_up_even():
    assert to_cents("0.245") == 25


def test_format():
    assert format_money(1234) == "$12.34"


def test_format_small():
    assert format_money(5) == "$0.05"


def test_format_negative():
    assert format_money(-50) == "-$0.50"
