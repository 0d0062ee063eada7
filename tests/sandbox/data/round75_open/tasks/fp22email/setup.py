import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Building mails."""\n\n\ndef build(to, subject, body):\n    return None\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import build\n\n\ndef test_headers():\n    msg = build("a@example.org", "Hi", "Hello")\n    assert msg["To"] == "a@example.org"\n    assert msg["Subject"] == "Hi"\n')
