import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Order totals."""\n\n\ndef total_cents(lines):\n    units = sum(q for q, _ in lines)\n    gross = sum(q * c for q, c in lines)\n    if units >= 100:\n        gross -= gross // 10\n    return gross\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import total_cents\n\n\ndef test_discount_at_exactly_100():\n    assert total_cents([(60, 100), (40, 100)]) == 9000\n\n\ndef test_discount_above():\n    assert total_cents([(150, 10)]) == 1350\n')
