import os
os.makedirs(os.path.dirname('a23lib/cart.py') or '.', exist_ok=True)
open('a23lib/cart.py', 'w').write('"""A shopping cart."""\n\n\nclass Cart:\n    def __init__(self, prices):\n        self.prices = prices  # the caller\'s list: items added later are seen\n\n    @property\n    def total(self):\n        return sum(self.prices)\n')
os.makedirs(os.path.dirname('tests/test_cart.py') or '.', exist_ok=True)
open('tests/test_cart.py', 'w').write('from a23lib.cart import Cart\n\n\ndef test_total():\n    prices = [5, 10, 20]\n    cart = Cart(prices)\n    assert cart.total == sum(prices)\n\n\ndef test_empty():\n    assert Cart([]).total == 0\n')
