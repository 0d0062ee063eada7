open("a23lib/hdrs.py", "w").write('''"""A parsed HTTP-style response with case-insensitive, read-only headers."""
import types


class CaseInsensitiveDict(dict):
    def __setitem__(self, key, value):
        super().__setitem__(key.lower(), value)

    def __getitem__(self, key):
        return super().__getitem__(key.lower())

    def __contains__(self, key):
        return super().__contains__(key.lower())


class Response:
    def __init__(self, raw):
        head, _, self.body = raw.partition("\\n\\n")
        self._headers = CaseInsensitiveDict()
        for line in head.splitlines():
            name, _, value = line.partition(":")
            self._headers[name.strip()] = value.strip()

    @property
    def headers(self):
        """The headers, read-only."""
        return types.MappingProxyType(self._headers)
''')
open("tests/test_hdrs.py", "w").write('''import pytest

from a23lib.hdrs import Response

RAW = "Content-Type: text/plain\\nX-Id: 7\\n\\nhello"


def test_headers_read_only():
    with pytest.raises(TypeError):
        Response(RAW).headers["X-New"] = "1"


def test_headers_case_insensitive():
    resp = Response(RAW)
    assert "content-type" in resp.headers
    assert resp.headers["CONTENT-TYPE"] == "text/plain"
''')
