open("a23lib/headers.py", "w").write('''"""HTTP header blocks."""
from collections.abc import MutableMapping


class Headers(MutableMapping):
    """Header fields by name; names match case-insensitively and keep the case they were given."""

    def __init__(self, data=()):
        self._store = {}
        for key, value in dict(data).items():
            self[key] = value

    def __setitem__(self, key, value):
        self._store[key.lower()] = (key, value)

    def __getitem__(self, key):
        return self._store[key.lower()][1]

    def __delitem__(self, key):
        del self._store[key.lower()]

    def __iter__(self):
        return (key for key, _ in self._store.values())

    def __len__(self):
        return len(self._store)

    def __contains__(self, key):
        return isinstance(key, str) and key.lower() in self._store

    def __repr__(self):
        return "Headers(%r)" % dict(self.items())


def parse_headers(text):
    """Fields of a header block, one "Name: value" a line."""
    out = Headers()
    for line in text.splitlines():
        if line.strip():
            name, _, value = line.partition(":")
            out[name.strip()] = value.strip()
    return out
''')
open("tests/test_headers.py", "w").write('''from a23lib.headers import parse_headers


def test_any_case():
    h = parse_headers("content-type: text/html\\nX-Id: 7\\n")
    assert "Content-Type" in h
    assert h["CONTENT-TYPE"] == "text/html"


def test_values():
    assert dict(parse_headers("A: 1\\nB: 2")) == {"A": "1", "B": "2"}
''')
