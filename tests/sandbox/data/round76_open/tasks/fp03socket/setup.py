import os
os.makedirs(os.path.dirname('a23lib/client.py') or '.', exist_ok=True)
open('a23lib/client.py', 'w').write('"""Fetching with a fallback."""\n\n\ndef fetch_or_default(fetch, default=None):\n    """fetch(), or default when the connection fails or times out."""\n    try:\n        return fetch()\n    except ConnectionError:\n        return default\n')
os.makedirs(os.path.dirname('tests/test_client.py') or '.', exist_ok=True)
open('tests/test_client.py', 'w').write('from a23lib.client import fetch_or_default\n\n\ndef test_timeout():\n    def slow():\n        raise TimeoutError("timed out")\n    assert fetch_or_default(slow, "cached") == "cached"\n\n\ndef test_refused():\n    def down():\n        raise ConnectionRefusedError()\n    assert fetch_or_default(down, 0) == 0\n')
