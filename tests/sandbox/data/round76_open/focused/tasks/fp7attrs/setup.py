import os
os.makedirs(os.path.dirname('a23lib/contacts.py') or '.', exist_ok=True)
open('a23lib/contacts.py', 'w').write('"""Contacts parsed from address lines."""\nimport attrs\n\n\n@attrs.frozen\nclass Contact:\n    name: str\n    email: str\n\n\ndef parse_contact(line):\n    """\'Ann Lee <Ann@Example.ORG>\' -> Contact(\'Ann Lee\', \'ann@example.org\'): addresses are stored lower-cased."""\n    name, _, rest = line.partition("<")\n    return Contact(name.strip(), rest.rstrip(">").strip().lower())\n')
os.makedirs(os.path.dirname('tests/test_contacts.py') or '.', exist_ok=True)
open('tests/test_contacts.py', 'w').write('from a23lib.contacts import Contact, parse_contact\n\n\ndef test_lowercased():\n    assert parse_contact("Ann Lee <Ann@Example.ORG>") == Contact("Ann Lee", "ann@example.org")\n\n\ndef test_plain():\n    assert parse_contact("Bo <bo@x.io>") == Contact("Bo", "bo@x.io")\n')
