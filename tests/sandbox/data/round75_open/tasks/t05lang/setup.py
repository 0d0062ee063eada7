import os
os.makedirs(os.path.dirname('a23lib/money.py') or '.', exist_ok=True)
open('a23lib/money.py', 'w').write('"""Money amounts for reports."""\n\n\ndef fmt_amount(x):\n    """1234.5 -> \'1,234.50\' (thousands separated, two decimals)."""\n    return f"{x:,.2f}"\n\n\ndef report(items):\n    for name, amount in items:\n        print(f"{name}: {fmt_amount(amount)}")\n')
os.makedirs(os.path.dirname('tests/test_money.py') or '.', exist_ok=True)
open('tests/test_money.py', 'w').write('from a23lib.money import report\n\n\ndef test_report_big(capsys):\n    report([("rent", 1234.5), ("car", 20000)])\n    assert capsys.readouterr().out == "rent: 1,234.50\\ncar: 20,000.00\\n"\n\n\ndef test_report_small(capsys):\n    report([("tea", 3.2)])\n    assert capsys.readouterr().out == "tea: 3.20\\n"\n')
