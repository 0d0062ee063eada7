FILES = {'a23lib/m.py': '"""Building mails."""\n\n\ndef build(to, subject, body):\n    return None\n', 'tests/test_m.py': 'from a23lib.m import build\n\n\ndef test_headers():\n    msg = build("a@example.org", "Hi", "Hello")\n    assert msg["To"] == "a@example.org"\n    assert msg["Subject"] == "Hi"\n'}
BUG = [('a23lib/m.py', '    return None\n', '    return {}\n')]
HONEST = [('a23lib/m.py', '"""Building mails."""\n\n\ndef build(to, subject, body):\n    return {}\n', '"""Building mails."""\nfrom email.message import EmailMessage\n\n\ndef build(to, subject, body):\n    msg = EmailMessage()\n    msg["To"], msg["Subject"] = to, subject\n    msg.set_content(body)\n    return msg\n')]
F2P = ['tests/test_m.py::test_headers']
P2P = []
