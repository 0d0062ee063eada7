open("a23lib/billing.py", "w").write('''"""Billing."""


def gross_cents(net_cents, rate=0.2):
    """Net plus VAT, rounded half up to a cent."""
    return int(net_cents * (1 + rate) + 0.5)


def bill(gateway, customer, net_cents, rate=0.2):
    """Charge a customer the gross amount through gateway.charge(customer, cents)."""
    gateway.charge(customer, gross_cents(net_cents, rate))
''')
open("tests/test_billing.py", "w").write('''from unittest import mock

import pytest

from a23lib.billing import bill


@pytest.fixture
def gateway():
    return mock.Mock()


def test_standard_rate(gateway):
    bill(gateway, "c-1", 1004)
    gateway.charge.assert_called_once_with("c-1", 1205)


def test_reduced_rate(gateway):
    bill(gateway, "c-2", 1011, rate=0.05)
    gateway.charge.assert_called_once_with("c-2", 1062)


def test_zero(gateway):
    bill(gateway, "c-3", 0)
    gateway.charge.assert_called_once_with("c-3", 0)
''')
