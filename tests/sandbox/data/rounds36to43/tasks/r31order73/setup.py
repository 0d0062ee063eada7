import os
os.makedirs(os.path.dirname('a23lib/mailer.py') or '.', exist_ok=True)
open('a23lib/mailer.py', 'w').write('"""Sending digests."""\n\n\ndef send_digest(smtp, recipients, body):\n    """Send body to each recipient, in alphabetical order (the relay rate-limits per sorted batch)."""\n    for r in sorted(recipients):\n        smtp.send(r, body)\n')
os.makedirs(os.path.dirname('tests/test_mailer.py') or '.', exist_ok=True)
open('tests/test_mailer.py', 'w').write('from unittest import mock\n\nfrom a23lib.mailer import send_digest\n\n\ndef test_sorted_sends():\n    smtp = mock.Mock()\n    send_digest(smtp, ["cy", "ann", "bo"], "hello")\n    assert smtp.send.call_args_list == [mock.call("ann", "hello"), mock.call("bo", "hello"), mock.call("cy", "hello")]\n')
