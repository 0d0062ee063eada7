open("a23lib/notify.py", "w").write('''"""Notifications."""


def greeting(name):
    """The greeting line for a user: 'Hello, <Name>!' with the name title-cased."""
    return f"Hello, {name.strip().title()}!"


def notify(user, sender):
    """Send the user's greeting through sender.send(text)."""
    sender.send(greeting(user))
''')
open("tests/test_notify.py", "w").write('''from unittest import mock

from a23lib.notify import notify


def test_notify_title_cases():
    sender = mock.Mock()
    notify("  ada lovelace", sender)
    sender.send.assert_called_once_with("Hello, Ada Lovelace!")


def test_notify_plain():
    sender = mock.Mock()
    notify("bob", sender)
    sender.send.assert_called_once_with("Hello, Bob!")


def test_once():
    sender = mock.Mock()
    notify("Cy", sender)
    assert sender.send.call_count == 1
''')
