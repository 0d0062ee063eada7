import os
os.makedirs(os.path.dirname('a23lib/models.py') or '.', exist_ok=True)
open('a23lib/models.py', 'w').write('"""The package\'s records."""\nimport attrs\n\n\n@attrs.frozen\nclass Contact:\n    name: str\n    email: str\n')
os.makedirs(os.path.dirname('a23lib/parse.py') or '.', exist_ok=True)
open('a23lib/parse.py', 'w').write('"""Contacts parsed from address lines."""\nfrom a23lib.models import Contact\n\n\ndef parse_contact(line):\n    """\'Ann Lee <Ann@Example.ORG>\' -> Contact(\'Ann Lee\', \'ann@example.org\'): addresses are stored lower-cased."""\n    name, _, rest = line.partition("<")\n    return Contact(name.strip(), rest.rstrip(">").strip().lower())\n')
os.makedirs(os.path.dirname('tests/test_parse.py') or '.', exist_ok=True)
open('tests/test_parse.py', 'w').write('from a23lib.parse import parse_contact\n\n\ndef test_lowercased():\n    c = parse_contact("Ann Lee <Ann@Example.ORG>")\n    assert (c.name, c.email) == ("Ann Lee", "ann@example.org")\n\n\ndef test_plain():\n    c = parse_contact("Bo <bo@x.io>")\n    assert (c.name, c.email) == ("Bo", "bo@x.io")\n')
