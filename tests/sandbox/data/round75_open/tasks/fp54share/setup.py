import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Documents sharing one site configuration."""\nimport copy\n\n\nclass Doc:\n    def __init__(self, items, config):\n        self.items = items\n        self.config = config\n\n    def __deepcopy__(self, memo):\n        # the items are the document\'s own; the site configuration is shared by design\n        return Doc(copy.deepcopy(self.items, memo), self.config)\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import copy\n\nfrom a23lib.m import Doc\n\n\ndef test_copy_is_independent_but_shares_config():\n    site = {"theme": "dark"}\n    d = Doc(["a"], site)\n    c = copy.deepcopy(d)\n    c.items.append("b")\n    assert d.items == ["a"]\n    assert c.config is site\n')
