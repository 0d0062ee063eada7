import json, os, uuid
os.makedirs("test-data", exist_ok=True)
open("a23lib/ids.py", "w").write('''"""Stable identifiers for user names."""
import uuid


def user_id(name):
    """The user's id: a name-based UUID in the URL namespace."""
    return uuid.uuid5(uuid.NAMESPACE_URL, name.strip().lower())
''')
json.dump({n: str(uuid.uuid5(uuid.NAMESPACE_URL, n.lower())) for n in ("Alice", "Bob")}, open("test-data/ids.json", "w"), indent=1)
open("tests/test_ids.py", "w").write('''import json
import pathlib
import uuid

import pytest

from a23lib.ids import user_id

CASES = json.loads((pathlib.Path(__file__).parent.parent / "test-data" / "ids.json").read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_user_id(name):
    assert user_id(name) == uuid.UUID(CASES[name])


def test_stable():
    assert user_id(" bob ") == user_id("BOB")
''')
