import os
os.makedirs(os.path.dirname('a23lib/report.py') or '.', exist_ok=True)
open('a23lib/report.py', 'w').write('"""Order summaries."""\n\n\ndef order_total(order):\n    """Sum of the order\'s line prices times quantities."""\n    return sum(p * q for p, q in order.lines)\n')
os.makedirs(os.path.dirname('tests/test_report.py') or '.', exist_ok=True)
open('tests/test_report.py', 'w').write('from types import SimpleNamespace\n\nfrom a23lib.report import order_total\n\n\ndef test_total_matches_lines():\n    order = SimpleNamespace(id=7, lines=[(2.5, 2), (10.0, 1), (1.25, 4)])\n    assert order_total(order) == sum(p * q for p, q in order.lines)\n\n\ndef test_empty():\n    assert order_total(SimpleNamespace(id=1, lines=[])) == 0\n')
