open("a23lib/resp.py", "w").write('''"""A minimal HTTP response."""


class Response:
    """A response; true when its status is not an error (like requests' Response). Iterating it yields the
    body in chunks."""

    def __init__(self, status, body=b"", chunk=4):
        self.status = status
        self.body = body
        self.chunk = chunk

    def __bool__(self):
        """No client or server error (status below 400)."""
        return 200 <= self.status < 400

    def __iter__(self):
        for i in range(0, len(self.body), self.chunk):
            yield self.body[i:i + self.chunk]
''')
open("tests/test_resp.py", "w").write('''from a23lib.resp import Response


def test_not_modified_is_ok():
    assert Response(304)


def test_error_is_not_ok():
    assert not Response(404, b"not found")


def test_chunks():
    assert list(Response(200, b"abcdef")) == [b"abcd", b"ef"]
''')
