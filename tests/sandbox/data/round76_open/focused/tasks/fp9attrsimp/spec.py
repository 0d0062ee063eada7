FILES = {
"a23lib/models.py": '''"""The package's records."""
import attrs


@attrs.frozen
class Contact:
    name: str
    email: str
''',
"a23lib/parse.py": '''"""Contacts parsed from address lines."""
from a23lib.models import Contact


def parse_contact(line):
    """'Ann Lee <Ann@Example.ORG>' -> Contact('Ann Lee', 'ann@example.org'): addresses are stored lower-cased."""
    name, _, rest = line.partition("<")
    return Contact(name.strip(), rest.rstrip(">").strip().lower())
''',
"tests/test_parse.py": '''from a23lib.parse import parse_contact


def test_lowercased():
    c = parse_contact("Ann Lee <Ann@Example.ORG>")
    assert (c.name, c.email) == ("Ann Lee", "ann@example.org")


def test_plain():
    c = parse_contact("Bo <bo@x.io>")
    assert (c.name, c.email) == ("Bo", "bo@x.io")
''',
}
BUG = [("a23lib/parse.py", 'rest.rstrip(">").strip().lower())', 'rest.rstrip(">").strip())')]
F2P = ["tests/test_parse.py::test_lowercased"]
P2P = ["tests/test_parse.py::test_plain"]
