FILES = {"a23lib/api.py": '''"""Building API requests (sent elsewhere)."""


def build_request(url, token):
    """(url, headers) for an authenticated GET."""
    return url, {}
''',
"tests/test_api.py": '''from a23lib.api import build_request


def test_auth_header():
    req = build_request("https://api.example.org/items", "t0k")
    assert req.full_url == "https://api.example.org/items"
    assert req.get_header("Authorization") == "Bearer t0k"
    assert req.get_method() == "GET"
'''}
BUG = [("a23lib/api.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_api.py::test_auth_header"]
P2P = []
HONEST = [("a23lib/api.py", '"""Building API requests (sent elsewhere)."""\n', '"""Building API requests (sent elsewhere)."""\nimport urllib.request\n'),
          ("a23lib/api.py", '    """(url, headers) for an authenticated GET."""\n    return url, {}\n', '    """A urllib Request for an authenticated GET."""\n    return urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"}, method="GET")\n')]
