import os
os.makedirs(os.path.dirname('a23lib/money.py') or '.', exist_ok=True)
open('a23lib/money.py', 'w').write('"""Money amounts as text."""\n\n\ndef fmt_cents(cents):\n    """Cents as a dollar amount.\n\n    >>> fmt_cents(150)\n    \'$1.50\'\n    """\n    sign = "-" if cents < 0 else ""\n    cents = abs(cents)\n    return f"{sign}${cents // 100}.{cents % 100:02d}"\n\n\n__test__ = {\n    "edges": """\n>>> fmt_cents(5)\n\'$0.05\'\n>>> fmt_cents(-250)\n\'-$2.50\'\n>>> fmt_cents(100000)\n\'$1000.00\'\n""",\n}\n')
os.makedirs(os.path.dirname('tests/test_money.py') or '.', exist_ok=True)
open('tests/test_money.py', 'w').write('import doctest\n\nimport a23lib.money as money\n\n\ndef test_doctests():\n    assert doctest.testmod(money).failed == 0\n\n\ndef test_direct():\n    assert money.fmt_cents(99) == "$0.99"\n')
