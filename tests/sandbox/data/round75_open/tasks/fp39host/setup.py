import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Host names."""\n\n\nclass Host:\n    def __init__(self, name):\n        self.name = name\n\n    def __eq__(self, other):  # DNS names are case-insensitive (RFC 4343)\n        return isinstance(other, Host) and self.name.lower() == other.name.lower()\n\n    def __hash__(self):\n        return hash(self.name.lower())\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import Host\n\n\ndef test_dns_names_ignore_case():\n    assert Host("Example.ORG") == Host("example.org")\n\n\ndef test_different():\n    assert Host("a.org") != Host("b.org")\n')
