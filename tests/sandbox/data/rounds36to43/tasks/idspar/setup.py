open("a23lib/parallel.py", "w").write('''"""Run a function over many items on a small thread pool."""
from concurrent.futures import ThreadPoolExecutor


def pmap(fn, items, workers=4):
    """[fn(x) for x in items], computed on worker threads (I/O-bound work)."""
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))
''')
open("a23lib/ids.py", "w").write('''"""Stable identifiers for user names."""
import uuid

from a23lib.parallel import pmap


def user_id(name):
    """The user's id: a name-based UUID in the URL namespace."""
    return uuid.uuid5(uuid.NAMESPACE_URL, name.strip().lower())


def user_ids(names):
    """The ids of many users."""
    return pmap(user_id, names)
''')
open("tests/test_ids.py", "w").write('''import uuid

from a23lib.ids import user_id, user_ids


def test_user_id():
    assert user_id("Alice") == uuid.UUID("%s")


def test_stable():
    assert user_ids([" bob ", "x"]) == [user_id("BOB"), user_id("X")]
''' % __import__("uuid").uuid5(__import__("uuid").NAMESPACE_URL, "alice"))
