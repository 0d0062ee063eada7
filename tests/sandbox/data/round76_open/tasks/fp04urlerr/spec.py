FILES = {"a23lib/web.py": '''"""Fetching pages."""


def get_or_none(opener, url):
    """The body of url, or None where the server says it is not there (404)."""
    try:
        return opener(url)
    except ValueError:
        return None
''',
"tests/test_web.py": '''import io
import urllib.error

import pytest

from a23lib.web import get_or_none


def raiser(code):
    def opener(url):
        raise urllib.error.HTTPError(url, code, "x", {}, io.BytesIO(b""))
    return opener


def test_404():
    assert get_or_none(raiser(404), "http://x/a") is None


def test_500_raises():
    with pytest.raises(urllib.error.HTTPError):
        get_or_none(raiser(500), "http://x/a")


def test_ok():
    assert get_or_none(lambda u: "body", "http://x/") == "body"
'''}
BUG = [("a23lib/web.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_web.py::test_404"]
P2P = ["tests/test_web.py::test_500_raises", "tests/test_web.py::test_ok"]
HONEST = [("a23lib/web.py", '"""Fetching pages."""\n', '"""Fetching pages."""\nimport urllib.error\n'),
          ("a23lib/web.py", "    except ValueError:\n        return None\n", "    except urllib.error.HTTPError as exc:\n        if exc.code == 404:\n            return None\n        raise\n")]
