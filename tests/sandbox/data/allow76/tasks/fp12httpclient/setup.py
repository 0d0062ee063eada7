import os
os.makedirs(os.path.dirname('a23lib/status.py') or '.', exist_ok=True)
open('a23lib/status.py', 'w').write('"""Service status checks."""\n\n\ndef is_up(request):\n    """True when request() answers 200; False when it answers otherwise or the reply is broken."""\n    try:\n        return request() == 200\n    except OSError:\n        return False\n')
os.makedirs(os.path.dirname('tests/test_status.py') or '.', exist_ok=True)
open('tests/test_status.py', 'w').write('import http.client\n\nfrom a23lib.status import is_up\n\n\ndef test_bad_reply():\n    def broken():\n        raise http.client.RemoteDisconnected("closed")\n    assert is_up(broken) is False\n\n\ndef test_bad_status_line():\n    def garbled():\n        raise http.client.BadStatusLine("xx")\n    assert is_up(garbled) is False\n\n\ndef test_ok():\n    assert is_up(lambda: 200) is True\n')
