open("a23lib/names.py", "w").write('''"""Header names."""


class HeaderName(str):
    """A header field name: names are case-insensitive (RFC 9110, 5.1)."""

    def __eq__(self, other):
        if isinstance(other, str):
            return self.lower() == other.lower()
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash(self.lower())


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
