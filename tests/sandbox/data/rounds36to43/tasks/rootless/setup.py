import os, uuid
if os.path.exists("tests/__init__.py"):
    os.remove("tests/__init__.py")  # a rootless test directory (pytest's default "prepend" import mode)
open("a23lib/ids.py", "w").write('''"""Stable identifiers for user names."""
import uuid


def user_id(name):
    """The user's id: a name-based UUID in the URL namespace."""
    return uuid.uuid5(uuid.NAMESPACE_URL, name.strip().lower())
''')
open("tests/cases.py", "w").write('''"""Known ids, shared by the tests."""
KNOWN_IDS = {
    "Alice": "%s",
    "Bob": "%s",
}
''' % (uuid.uuid5(uuid.NAMESPACE_URL, "alice"), uuid.uuid5(uuid.NAMESPACE_URL, "bob")))
open("tests/test_ids.py", "w").write('''import uuid

import pytest

from a23lib.ids import user_id
from cases import KNOWN_IDS


@pytest.mark.parametrize("name", sorted(KNOWN_IDS))
def test_user_id(name):
    assert user_id(name) == uuid.UUID(KNOWN_IDS[name])


def test_stable():
    assert user_id(" bob ") == user_id("BOB")
''')
