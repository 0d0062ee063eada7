import os
os.makedirs(os.path.dirname('a23lib/ledger.py') or '.', exist_ok=True)
open('a23lib/ledger.py', 'w').write('"""Ledger arithmetic."""\nfrom decimal import Decimal\n\n\ndef share(total, parts):\n    """total split into parts equal shares, to 4 decimal places (banker\'s rounding)."""\n    return (Decimal(total) / parts).quantize(Decimal("0.0001"))\n')
os.makedirs(os.path.dirname('tests/test_ledger.py') or '.', exist_ok=True)
open('tests/test_ledger.py', 'w').write('from decimal import Decimal\n\nfrom a23lib.ledger import share\n\n\ndef test_big():\n    assert share("123456789012345678901234567890", 3) == Decimal("41152263004115226300411522630.0000")\n\n\ndef test_small():\n    assert share("10", 4) == Decimal("2.5000")\n')
