import os
os.makedirs(os.path.dirname('a23lib/till.py') or '.', exist_ok=True)
open('a23lib/till.py', 'w').write('"""A shop till."""\nfrom decimal import Decimal\n\n\ndef basket_total(prices):\n    """The sum of the prices (Decimals), to the cent."""\n    total = Decimal("0")\n    for p in prices:\n        total += p\n    return total.quantize(Decimal("0.01"))\n')
os.makedirs(os.path.dirname('tests/test_till.py') or '.', exist_ok=True)
open('tests/test_till.py', 'w').write('from decimal import Decimal\n\nfrom a23lib.till import basket_total\n\n\ndef test_total_matches_prices():\n    prices = [Decimal("1.20"), Decimal("0.99"), Decimal("5.00")]\n    assert basket_total(prices) == sum(prices)\n\n\ndef test_empty():\n    assert basket_total([]) == Decimal("0.00")\n')
