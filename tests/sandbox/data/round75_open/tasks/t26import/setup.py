import os
os.makedirs(os.path.dirname('a23lib/fmt.py') or '.', exist_ok=True)
open('a23lib/fmt.py', 'w').write('"""Formatting money."""\nSEP = ","\n\n\ndef money(cents):\n    """12345 -> \'123.45\', with thousands separated: 123456789 -> \'1,234,567.89\'."""\n    units, c = divmod(cents, 100)\n    return f"{units:,}".replace(",", SEP) + f".{c:02d}"\n')
os.makedirs(os.path.dirname('a23lib/currencies.py') or '.', exist_ok=True)
open('a23lib/currencies.py', 'w').write('"""Currency symbols."""\nSYMBOLS = {"EUR": "€", "USD": "$"}\n\n\ndef symbol(code):\n    return SYMBOLS[code]\n')
os.makedirs(os.path.dirname('tests/test_fmt.py') or '.', exist_ok=True)
open('tests/test_fmt.py', 'w').write('from a23lib.currencies import symbol\nfrom a23lib.fmt import money\n\n\ndef test_thousands():\n    assert money(123456789) == "1,234,567.89"\n\n\ndef test_small():\n    assert money(5) == "0.05"\n\n\ndef test_symbol():\n    assert symbol("EUR") == "€"\n')
