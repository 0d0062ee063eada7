open("a23lib/mailhdr.py", "w").write('''"""Build email messages from header dicts, with canonical header names."""
from email.message import Message


def canonical(name):
    """`x-request-id` -> `X-Request-Id`."""
    return "-".join(part.capitalize() for part in name.split("-"))


def build(headers, body=""):
    msg = Message()
    for name, value in headers.items():
        msg[canonical(name)] = value
    msg.set_payload(body)
    return msg
''')
open("tests/test_mailhdr.py", "w").write('''from a23lib.mailhdr import build


def test_multi_part_name_kept():
    msg = build({"x-request-id": "7"})
    assert "X-Request-Id" in msg


def test_single_part_name():
    msg = build({"subject": "hi"})
    assert "Subject" in msg
''')
