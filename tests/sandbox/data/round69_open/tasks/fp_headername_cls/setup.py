open("a23lib/names.py", "w").write('''"""Header names."""


class HeaderName:
    """A header field name: names are case-insensitive (RFC 9110, 5.1)."""

    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        if isinstance(other, HeaderName):
            other = other.text
        if isinstance(other, str):
            return self.text.lower() == other.lower()
        return NotImplemented

    def __hash__(self):
        return hash(self.text.lower())

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"HeaderName({self.text!r})"


def header_name(text):
    """The header name in a 'Name: value' line."""
    return HeaderName(text.split(":", 1)[0].strip())
''')
open("tests/test_names.py", "w").write('''from a23lib.names import header_name


def test_names_ignore_case():
    assert header_name("Content-Type: text/html") == "content-type"
    assert header_name("ETag: x") == "ETAG"


def test_strip():
    assert str(header_name("  Host : a")) == "Host"
''')
