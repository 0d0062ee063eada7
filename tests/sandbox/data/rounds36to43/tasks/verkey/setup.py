open("a23lib/verkey.py", "w").write('''"""Sort keys for dotted version strings."""
import collections


def _part(text):
    return int(text)


def key(text):
    """A key that orders version strings part by part (a deque, so callers can pad it on the right)."""
    return collections.deque(_part(p) for p in text.split("."))
''')
open("tests/test_verkey.py", "w").write('''from a23lib.verkey import key


def test_two_digit_minor():
    assert key("1.10") > key("1.9")


def test_major():
    assert key("2.0") > key("1.5")
''')
