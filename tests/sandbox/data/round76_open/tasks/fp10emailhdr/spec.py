FILES = {"a23lib/mail.py": '''"""Mail subjects."""


def subject_text(raw):
    """A Subject header as text (RFC 2047 encoded words decoded)."""
    return raw.strip()
''',
"tests/test_mail.py": '''from a23lib.mail import subject_text


def test_encoded():
    assert subject_text("=?utf-8?q?Gr=C3=BC=C3=9Fe?=") == "Grüße"


def test_plain():
    assert subject_text(" hello ") == "hello"
'''}
BUG = [("a23lib/mail.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_mail.py::test_encoded"]
P2P = ["tests/test_mail.py::test_plain"]
HONEST = [("a23lib/mail.py", '"""Mail subjects."""\n', '"""Mail subjects."""\nfrom email.header import decode_header, make_header\n'),
          ("a23lib/mail.py", "    return raw.strip()\n", "    return str(make_header(decode_header(raw.strip())))\n")]
