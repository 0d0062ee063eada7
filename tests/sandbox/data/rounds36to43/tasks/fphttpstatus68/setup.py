import os
os.makedirs(os.path.dirname('a23lib/web.py') or '.', exist_ok=True)
open('a23lib/web.py', 'w').write('"""HTTP helpers."""\nfrom http import HTTPStatus\n\n\ndef status_line(code):\n    """\'404 Not Found\' for a known status code, \'599 Unknown\' otherwise."""\n    try:\n        return f"{code} {HTTPStatus(code).phrase}"\n    except ValueError:\n        return f"{code} Unknown"\n')
os.makedirs(os.path.dirname('tests/test_web.py') or '.', exist_ok=True)
open('tests/test_web.py', 'w').write('import pytest\n\nfrom a23lib.web import status_line\n\n\n@pytest.mark.parametrize("code,line", [\n    (200, "200 OK"),\n    (404, "404 Not Found"),\n    (418, "418 I\'m a Teapot"),\n    (503, "503 Service Unavailable"),\n    (599, "599 Unknown"),\n])\ndef test_status_line(code, line):\n    assert status_line(code) == line\n')
