import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Templates with defaults."""\nimport string\n\n\nclass _Lenient(string.Formatter):\n    def get_value(self, key, args, kwargs):\n        return kwargs.get(key, "") if isinstance(key, str) else super().get_value(key, args, kwargs)\n\n\ndef render(template, **values):\n    return _Lenient().format(template, **values)\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import render\n\n\ndef test_missing_is_blank():\n    assert render("{a}-{b}", a="x") == "x-"\n')
