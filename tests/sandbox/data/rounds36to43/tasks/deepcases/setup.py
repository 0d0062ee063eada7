import os, uuid
os.makedirs("tests/support", exist_ok=True)
open("tests/support/__init__.py", "w").write("")
open("a23lib/ids.py", "w").write('''"""Stable identifiers for user names."""
import uuid


def user_id(name):
    """The user's id: a name-based UUID in the URL namespace."""
    return uuid.uuid5(uuid.NAMESPACE_URL, name.strip().lower())
''')
open("tests/support/cases.py", "w").write('''"""Known ids, shared by the tests."""
KNOWN_IDS = {
    "Alice": "%s",
    "Bob": "%s",
}
''' % (uuid.uuid5(uuid.NAMESPACE_URL, "alice"), uuid.uuid5(uuid.NAMESPACE_URL, "bob")))
open("tests/support/loader.py", "w").write('''"""Loads the shared cases as (name, UUID) pairs."""
import uuid

from tests.support.cases import KNOWN_IDS


def known_pairs():
    return [(name, uuid.UUID(KNOWN_IDS[name])) for name in sorted(KNOWN_IDS)]
''')
open("tests/helpers.py", "w").write('''"""Shared test helpers."""
from tests.support.loader import known_pairs

KNOWN = known_pairs()
''')
open("tests/test_ids.py", "w").write('''import pytest

from a23lib.ids import user_id
from tests.helpers import KNOWN


@pytest.mark.parametrize("name,want", KNOWN, ids=[n for n, _ in KNOWN])
def test_user_id(name, want):
    assert user_id(name) == want


def test_stable():
    assert user_id(" bob ") == user_id("BOB")
''')
