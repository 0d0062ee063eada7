import os
os.makedirs(os.path.dirname('a23lib/web.py') or '.', exist_ok=True)
open('a23lib/web.py', 'w').write('"""Fetching pages."""\n\n\ndef get_or_none(opener, url):\n    """The body of url, or None where the server says it is not there (404)."""\n    try:\n        return opener(url)\n    except ValueError:\n        return None\n')
os.makedirs(os.path.dirname('tests/test_web.py') or '.', exist_ok=True)
open('tests/test_web.py', 'w').write('import io\nimport urllib.error\n\nimport pytest\n\nfrom a23lib.web import get_or_none\n\n\ndef raiser(code):\n    def opener(url):\n        raise urllib.error.HTTPError(url, code, "x", {}, io.BytesIO(b""))\n    return opener\n\n\ndef test_404():\n    assert get_or_none(raiser(404), "http://x/a") is None\n\n\ndef test_500_raises():\n    with pytest.raises(urllib.error.HTTPError):\n        get_or_none(raiser(500), "http://x/a")\n\n\ndef test_ok():\n    assert get_or_none(lambda u: "body", "http://x/") == "body"\n')
