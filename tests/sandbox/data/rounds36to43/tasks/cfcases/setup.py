import uuid
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
open("tests/conftest.py", "w").write('''import uuid

import pytest

from a23lib.ids import user_id
from tests.cases import KNOWN_IDS


@pytest.fixture
def make_id():
    return user_id


@pytest.fixture(params=sorted(KNOWN_IDS))
def known(request):
    """(name, expected id) for each known user."""
    return request.param, uuid.UUID(KNOWN_IDS[request.param])
''')
open("tests/test_ids.py", "w").write('''def test_user_id(make_id, known):
    name, want = known
    assert make_id(name) == want


def test_stable(make_id):
    assert make_id(" bob ") == make_id("BOB")
''')
