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
open("a23lib/tools.py", "w").write('''"""Helpers that run external tools."""
import concurrent.futures
import subprocess


def tool_output(args):
    """The standard output of an external tool, or "" if it cannot run."""
    try:
        return subprocess.run(args, capture_output=True, text=True, check=False, timeout=30).stdout
    except OSError:
        return ""


def tool_outputs(commands, workers=4):
    """The standard outputs of several tools, run concurrently (in the order given)."""
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(tool_output, commands))
''')
