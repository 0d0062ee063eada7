open("a23lib/bus.py", "w").write('''"""A tiny message bus."""


def broadcast(msg, subscribers):
    """Send msg once to each distinct subscriber (a subscriber listed twice still gets it once)."""
    seen = set()
    for sub in subscribers:
        if id(sub) in seen:
            continue
        seen.add(id(sub))
        sub.send(msg)
''')
open("tests/test_bus.py", "w").write('''from unittest import mock

from a23lib.bus import broadcast


def test_each_subscriber_once():
    a, b = mock.Mock(), mock.Mock()
    broadcast("hi", [a, b])
    a.send.assert_called_once_with("hi")
    b.send.assert_called_once_with("hi")


def test_duplicate_subscriber_gets_one_message():
    a = mock.Mock()
    broadcast("hello", [a, a, a])
    a.send.assert_called_once_with("hello")


def test_nobody():
    broadcast("x", [])
''')
