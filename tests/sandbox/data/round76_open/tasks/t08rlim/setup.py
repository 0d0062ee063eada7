import os
os.makedirs(os.path.dirname('a23lib/inventory.py') or '.', exist_ok=True)
open('a23lib/inventory.py', 'w').write('"""Stock counts."""\n\n\nclass Inventory:\n    def __init__(self):\n        self.counts = {}\n\n    def add(self, item, n=1):\n        self.counts[item] = self.counts.get(item, 0) + n\n\n    def remove(self, item, n=1):\n        """Take n of item away; the item goes when none is left."""\n        have = self.counts.get(item, 0)\n        if n > have:\n            raise ValueError(f"only {have} {item}")\n        if have == n:\n            del self.counts[item]\n        else:\n            self.counts[item] = have - n\n')
os.makedirs(os.path.dirname('tests/conftest.py') or '.', exist_ok=True)
open('tests/conftest.py', 'w').write('import pytest\n\nfrom a23lib.inventory import Inventory\n\n\n@pytest.fixture\ndef inv():\n    i = Inventory()\n    i.add("bolt", 5)\n    i.add("nut", 2)\n    return i\n')
os.makedirs(os.path.dirname('tests/test_inventory.py') or '.', exist_ok=True)
open('tests/test_inventory.py', 'w').write('import pytest\n\n\ndef test_remove_some(inv):\n    inv.remove("bolt", 3)\n    assert inv.counts == {"bolt": 2, "nut": 2}\n\n\ndef test_remove_all(inv):\n    inv.remove("nut", 2)\n    assert inv.counts == {"bolt": 5}\n\n\ndef test_too_many(inv):\n    with pytest.raises(ValueError):\n        inv.remove("nut", 3)\n')
