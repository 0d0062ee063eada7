import os
os.makedirs(os.path.dirname('a23lib/invoice.py') or '.', exist_ok=True)
open('a23lib/invoice.py', 'w').write('"""Invoices."""\nfrom decimal import Decimal\n\n\ndef to_cents(amount):\n    """\'1.50\' -> 150."""\n    return int(Decimal(amount) * 100)\n\n\ndef invoice_total(amounts):\n    """The total of the amounts (strings like \'1.50\'), as text with two decimals."""\n    cents = sum(to_cents(a) for a in amounts)\n    return f"{cents // 100}.{cents % 100:02d}"\n')
os.makedirs(os.path.dirname('tests/test_invoice.py') or '.', exist_ok=True)
open('tests/test_invoice.py', 'w').write('from a23lib.invoice import invoice_total\n\n\ndef test_total():\n    assert invoice_total(["1.50", "2.25"]) == "3.75"\n\n\ndef test_big():\n    assert invoice_total(["100.00", "0.99"]) == "100.99"\n\n\ndef test_empty():\n    assert invoice_total([]) == "0.00"\n')
