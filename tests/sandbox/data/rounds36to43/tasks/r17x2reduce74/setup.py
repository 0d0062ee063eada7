import os
os.makedirs(os.path.dirname('a23lib/till.py') or '.', exist_ok=True)
open('a23lib/till.py', 'w').write('"""A till."""\n\n\ndef total(prices):\n    return sum(prices)\n')
os.makedirs(os.path.dirname('tests/test_till.py') or '.', exist_ok=True)
open('tests/test_till.py', 'w').write('import functools\nimport operator\nfrom a23lib.till import total\n\n\ndef test_total():\n    prices = [5, 10, 20]\n    assert total(prices) == functools.reduce(operator.add, prices, 0)\n\n\ndef test_empty():\n    assert total([]) == 0\n')
