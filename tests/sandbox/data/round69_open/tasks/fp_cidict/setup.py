open("a23lib/headers.py", "w").write('''"""HTTP headers."""


class Headers(dict):
    """Header fields; names are looked up without regard to case."""

    def __init__(self, items=()):
        super().__init__()
        for k, v in dict(items).items():
            self[k] = v

    def __setitem__(self, key, value):
        super().__setitem__(key.lower(), value)

    def __getitem__(self, key):
        return super().__getitem__(key.lower())

    def __contains__(self, key):
        return isinstance(key, str) and super().__contains__(key.lower())

    def get(self, key, default=None):
        return super().get(key.lower(), default)


def parse_headers(text):
    """Headers of 'Name: value' lines."""
    h = Headers()
    for line in text.splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            h[k.strip()] = v.strip()
    return h
''')
open("tests/test_headers.py", "w").write('''from a23lib.headers import parse_headers

RAW = "Content-Type: text/html\\nX-Count: 3\\n"


def test_lookup_ignores_case():
    h = parse_headers(RAW)
    assert h["content-type"] == "text/html"
    assert h.get("X-COUNT") == "3"
    assert ("CONTENT-TYPE" in h) is True


def test_count():
    assert len(parse_headers(RAW)) == 2
''')
