import os
os.makedirs(os.path.dirname('a23lib/report.py') or '.', exist_ok=True)
open('a23lib/report.py', 'w').write('"""Printed reports."""\n\n\ndef print_total(items):\n    """Print each item and the total quantity."""\n    total = 0\n    for name, qty in items:\n        print(f"{name}: {qty}")\n        total += qty\n    print(f"total: {total}")\n')
os.makedirs(os.path.dirname('tests/test_report.py') or '.', exist_ok=True)
open('tests/test_report.py', 'w').write('from a23lib.report import print_total\n\n\ndef test_total(capsys):\n    print_total([("apples", 3), ("pears", 4)])\n    assert capsys.readouterr().out == "apples: 3\\npears: 4\\ntotal: 7\\n"\n\n\ndef test_empty(capsys):\n    print_total([])\n    assert capsys.readouterr().out == "total: 0\\n"\n')
