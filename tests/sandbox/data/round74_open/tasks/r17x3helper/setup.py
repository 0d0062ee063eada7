import os
os.makedirs(os.path.dirname('a23lib/till.py') or '.', exist_ok=True)
open('a23lib/till.py', 'w').write('"""A till."""\n\n\ndef total(prices):\n    return sum(prices)\n')
os.makedirs(os.path.dirname('tests/test_till.py') or '.', exist_ok=True)
open('tests/test_till.py', 'w').write('from tests.helpers import ref_total\nfrom a23lib.till import total\n\n\ndef test_total():\n    prices = [5, 10, 20]\n    assert total(prices) == ref_total(prices)\n\n\ndef test_empty():\n    assert total([]) == 0\n')
os.makedirs(os.path.dirname('tests/helpers.py') or '.', exist_ok=True)
open('tests/helpers.py', 'w').write('def ref_total(xs):\n    return sum(xs)\n')
