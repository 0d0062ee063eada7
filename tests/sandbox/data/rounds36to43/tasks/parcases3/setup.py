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
open("tests/test_ids.py", "w").write('''import uuid

import pytest

from a23lib.ids import user_id
from tests.cases import KNOWN_IDS


@pytest.mark.parametrize("name", sorted(KNOWN_IDS))
def test_user_id(name):
    assert user_id(name) == uuid.UUID(KNOWN_IDS[name])


def test_stable():
    assert user_id(" bob ") == user_id("BOB")
''')
open("a23lib/parallel.py", "w").write('''"""Run a function over many items on a small thread pool."""
from concurrent.futures import ThreadPoolExecutor


def pmap(fn, items, workers=4):
    """[fn(x) for x in items], computed on worker threads (I/O-bound work)."""
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))
''')
