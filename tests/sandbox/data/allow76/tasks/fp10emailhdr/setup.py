import os
os.makedirs(os.path.dirname('a23lib/mail.py') or '.', exist_ok=True)
open('a23lib/mail.py', 'w').write('"""Mail subjects."""\n\n\ndef subject_text(raw):\n    """A Subject header as text (RFC 2047 encoded words decoded)."""\n    return raw.strip()\n')
os.makedirs(os.path.dirname('tests/test_mail.py') or '.', exist_ok=True)
open('tests/test_mail.py', 'w').write('from a23lib.mail import subject_text\n\n\ndef test_encoded():\n    assert subject_text("=?utf-8?q?Gr=C3=BC=C3=9Fe?=") == "Grüße"\n\n\ndef test_plain():\n    assert subject_text(" hello ") == "hello"\n')
