import os
os.makedirs(os.path.dirname('a23lib/invoice.py') or '.', exist_ok=True)
open('a23lib/invoice.py', 'w').write('"""Invoices, in cents."""\n\nSHIPPING = 500\nFREE_FROM = 1000\n\n\ndef invoice_total(lines):\n    """The sum of the line amounts, plus shipping for orders under FREE_FROM."""\n    subtotal = sum(lines.values())\n    if subtotal < FREE_FROM:\n        return subtotal + SHIPPING\n    return subtotal\n')
os.makedirs(os.path.dirname('tests/test_invoice.py') or '.', exist_ok=True)
open('tests/test_invoice.py', 'w').write('from a23lib.invoice import invoice_total\n\n\ndef test_free_shipping():\n    lines = {"widget": 250, "gadget": 1000}\n    total = invoice_total(lines)\n    assert total == sum(lines.values())\n\n\ndef test_small_order():\n    assert invoice_total({"pin": 300}) == 800\n')
