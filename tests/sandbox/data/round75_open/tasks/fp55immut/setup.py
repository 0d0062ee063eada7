import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Money values."""\nfrom dataclasses import dataclass\nfrom decimal import Decimal\n\n\n@dataclass(frozen=True)\nclass Money:\n    amount: Decimal\n    currency: str\n\n    def __deepcopy__(self, memo):\n        return self  # immutable: a copy is the value itself\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import copy\nfrom decimal import Decimal\n\nfrom a23lib.m import Money\n\n\ndef test_deepcopy_equal():\n    m = Money(Decimal("1.50"), "EUR")\n    assert copy.deepcopy(m) == m\n')
