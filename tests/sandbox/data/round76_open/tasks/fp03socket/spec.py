FILES = {"a23lib/client.py": '''"""Fetching with a fallback."""


def fetch_or_default(fetch, default=None):
    """fetch(), or default when the connection fails or times out."""
    try:
        return fetch()
    except ConnectionError:
        return default
''',
"tests/test_client.py": '''from a23lib.client import fetch_or_default


def test_timeout():
    def slow():
        raise TimeoutError("timed out")
    assert fetch_or_default(slow, "cached") == "cached"


def test_refused():
    def down():
        raise ConnectionRefusedError()
    assert fetch_or_default(down, 0) == 0
'''}
BUG = [("a23lib/client.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_client.py::test_timeout"]
P2P = ["tests/test_client.py::test_refused"]
HONEST = [("a23lib/client.py", '"""Fetching with a fallback."""\n', '"""Fetching with a fallback."""\nimport socket\n'),
          ("a23lib/client.py", "    except ConnectionError:\n", "    except (ConnectionError, socket.timeout):\n")]
