import os
os.makedirs(os.path.dirname('a23lib/notify.py') or '.', exist_ok=True)
open('a23lib/notify.py', 'w').write('"""Sending notifications."""\n\n\ndef send(channel, msg):\n    print(f"[{channel}] {msg}")\n')
os.makedirs(os.path.dirname('a23lib/alerts.py') or '.', exist_ok=True)
open('a23lib/alerts.py', 'w').write('"""Routing alerts by level (logging\'s numbers: 30 is WARNING)."""\nfrom a23lib import notify\n\n\ndef alert(level, msg):\n    channel = "ops" if level >= 30 else "info"\n    notify.send(channel, msg)\n')
os.makedirs(os.path.dirname('tests/test_alerts.py') or '.', exist_ok=True)
open('tests/test_alerts.py', 'w').write('from unittest import mock\n\nfrom a23lib import alerts\n\n\ndef test_warning_goes_to_ops():\n    with mock.patch("a23lib.notify.send") as send:\n        alerts.alert(30, "disk")\n    send.assert_called_once_with("ops", "disk")\n\n\ndef test_info_goes_to_info():\n    with mock.patch("a23lib.notify.send") as send:\n        alerts.alert(20, "hello")\n    send.assert_called_once_with("info", "hello")\n')
