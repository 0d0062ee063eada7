import os
os.makedirs(os.path.dirname('a23lib/api.py') or '.', exist_ok=True)
open('a23lib/api.py', 'w').write('"""Building API requests (sent elsewhere)."""\n\n\ndef build_request(url, token):\n    """(url, headers) for an authenticated GET."""\n    return url, {}\n')
os.makedirs(os.path.dirname('tests/test_api.py') or '.', exist_ok=True)
open('tests/test_api.py', 'w').write('from a23lib.api import build_request\n\n\ndef test_auth_header():\n    req = build_request("https://api.example.org/items", "t0k")\n    assert req.full_url == "https://api.example.org/items"\n    assert req.get_header("Authorization") == "Bearer t0k"\n    assert req.get_method() == "GET"\n')
