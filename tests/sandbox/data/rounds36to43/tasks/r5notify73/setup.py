import os
os.makedirs(os.path.dirname('a23lib/notify.py') or '.', exist_ok=True)
open('a23lib/notify.py', 'w').write('"""Sending notifications through a transport."""\n\n\ndef broadcast(transport, users, text):\n    """Send text once to each distinct user, in first-seen order, then flush."""\n    seen = set()\n    for user in users:\n        if user in seen:\n            continue\n        seen.add(user)\n        transport.send(user, text)\n    transport.flush()\n')
os.makedirs(os.path.dirname('tests/test_notify.py') or '.', exist_ok=True)
open('tests/test_notify.py', 'w').write('from unittest.mock import Mock, call\n\nfrom a23lib.notify import broadcast\n\n\ndef test_each_user_once():\n    t = Mock()\n    broadcast(t, ["ann", "bo", "ann"], "hi")\n    assert t.mock_calls == [call.send("ann", "hi"), call.send("bo", "hi"), call.flush()]\n\n\ndef test_no_users():\n    t = Mock()\n    broadcast(t, [], "hi")\n    assert t.mock_calls == [call.flush()]\n')
