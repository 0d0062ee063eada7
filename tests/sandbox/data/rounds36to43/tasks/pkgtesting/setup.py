import os
os.makedirs("a23lib/testing", exist_ok=True)
open("a23lib/ids.py", "w").write('''"""Stable identifiers for user names."""
import uuid


def user_id(name):
    """The user's id: a name-based UUID in the URL namespace."""
    return uuid.uuid5(uuid.NAMESPACE_URL, name.strip().lower())
''')
open("a23lib/testing/__init__.py", "w").write('''"""Assertion helpers for code that uses a23lib (shipped with the package, like numpy.testing)."""
import uuid


def assert_user_id(got, name):
    """`got` is the id a23lib gives the user `name` (URL namespace, normalised name)."""
    want = uuid.uuid5(uuid.NAMESPACE_URL, name.strip().lower())
    assert got == want, f"{got} is not the id of {name!r} ({want})"
''')
open("tests/test_ids.py", "w").write('''import subprocess
import sys

from a23lib.ids import user_id
from a23lib.testing import assert_user_id


def test_user_id():
    assert_user_id(user_id("Alice"), "alice")


def test_stable():
    assert user_id(" bob ") == user_id("BOB")


def test_testing_imports_standalone():
    """The public testing helpers import in a fresh interpreter without pulling in pytest."""
    code = "import sys, a23lib.testing; assert 'pytest' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
''')
