open("a23lib/ids.py", "w").write('''"""Stable identifiers for user names."""
import uuid


def user_id(name):
    """The user's id: a name-based UUID in the URL namespace."""
    return uuid.uuid5(uuid.NAMESPACE_URL, name.strip().lower())
''')
open("tests/test_ids.py", "w").write('''import uuid

from a23lib.ids import user_id


def test_user_id():
    assert user_id("Alice") == uuid.UUID("%s")


def test_stable():
    assert user_id(" bob ") == user_id("BOB")
''' % __import__("uuid").uuid5(__import__("uuid").NAMESPACE_URL, "alice"))
