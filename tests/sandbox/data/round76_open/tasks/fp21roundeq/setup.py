import os
os.makedirs(os.path.dirname('a23lib/money2.py') or '.', exist_ok=True)
open('a23lib/money2.py', 'w').write('"""Amounts of money held as floats, equal when they are the same number of cents."""\n\n\nclass Amount:\n    def __init__(self, value):\n        self.value = value\n\n    def __eq__(self, other):\n        if not isinstance(other, Amount):\n            return NotImplemented\n        return self.value == other.value\n\n    def __repr__(self):\n        return f"Amount({self.value!r})"\n\n\ndef total(prices):\n    return Amount(sum(prices))\n')
os.makedirs(os.path.dirname('tests/test_money2.py') or '.', exist_ok=True)
open('tests/test_money2.py', 'w').write('from a23lib.money2 import Amount, total\n\n\ndef test_cents():\n    assert total([0.1, 0.2]) == Amount(0.3)\n\n\ndef test_differs():\n    assert total([0.1, 0.2]) != Amount(0.31)\n')
