import os
os.makedirs(os.path.dirname('a23lib/cookies.py') or '.', exist_ok=True)
open('a23lib/cookies.py', 'w').write('"""Cookie headers."""\n\n\ndef parse_cookie(header):\n    """\'a=1; b=2\' -> {\'a\': \'1\', \'b\': \'2\'}."""\n    out = {}\n    for part in header.split(";"):\n        name, _, value = part.partition("=")\n        out[name] = value\n    return out\n')
os.makedirs(os.path.dirname('tests/test_cookies.py') or '.', exist_ok=True)
open('tests/test_cookies.py', 'w').write('from a23lib.cookies import parse_cookie\n\n\ndef test_spaces():\n    assert parse_cookie("a=1; b=2") == {"a": "1", "b": "2"}\n\n\ndef test_one():\n    assert parse_cookie("sid=abc") == {"sid": "abc"}\n')
