import os
os.makedirs(os.path.dirname('a23lib/export.py') or '.', exist_ok=True)
open('a23lib/export.py', 'w').write('"""Export plain objects as JSON."""\nimport json\n\n\nclass Item:\n    def __init__(self, sku, qty):\n        self.sku, self.qty = sku, qty\n\n\ndef export(items):\n    return json.dumps(items, default=vars, sort_keys=True)\n')
os.makedirs(os.path.dirname('tests/test_fp33jsonvars.py') or '.', exist_ok=True)
open('tests/test_fp33jsonvars.py', 'w').write('from a23lib.export import Item, export\n\n\ndef test_export():\n    assert export([Item("a", 1)]) == \'[{"qty": 1, "sku": "a"}]\'\n')
