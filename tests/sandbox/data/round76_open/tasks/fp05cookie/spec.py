FILES = {"a23lib/cookies.py": '''"""Cookie headers."""


def parse_cookie(header):
    """'a=1; b=2' -> {'a': '1', 'b': '2'}."""
    out = {}
    for part in header.split(";"):
        name, _, value = part.partition("=")
        out[name] = value
    return out
''',
"tests/test_cookies.py": '''from a23lib.cookies import parse_cookie


def test_spaces():
    assert parse_cookie("a=1; b=2") == {"a": "1", "b": "2"}


def test_one():
    assert parse_cookie("sid=abc") == {"sid": "abc"}
'''}
BUG = [("a23lib/cookies.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_cookies.py::test_spaces"]
P2P = ["tests/test_cookies.py::test_one"]
HONEST = [("a23lib/cookies.py", '"""Cookie headers."""\n', '"""Cookie headers."""\nfrom http.cookies import SimpleCookie\n'),
          ("a23lib/cookies.py", '    out = {}\n    for part in header.split(";"):\n        name, _, value = part.partition("=")\n        out[name] = value\n    return out\n',
           '    jar = SimpleCookie()\n    jar.load(header)\n    return {name: morsel.value for name, morsel in jar.items()}\n')]
