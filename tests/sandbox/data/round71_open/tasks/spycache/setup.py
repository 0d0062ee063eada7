open("a23lib/store.py", "w").write('''"""A read-through cache over a slow loader."""

_cache = {}


def _load(key):
    """The slow part (a disk or network read in real use)."""
    return key.upper()


def get(key):
    """The value for key; the loader runs once per key."""
    if key not in _cache:
        _cache[key] = _load(key)
    return _cache[key]


def clear():
    _cache.clear()
''')
open("tests/test_store.py", "w").write('''import pytest

from a23lib import store


@pytest.fixture(autouse=True)
def fresh():
    store.clear()
    yield
    store.clear()


def test_loads_once(monkeypatch):
    calls = []
    real = store._load
    monkeypatch.setattr(store, "_load", lambda k: calls.append(k) or real(k))
    assert store.get("a") == "A"
    assert store.get("a") == "A"
    assert store.get("b") == "B"
    assert calls == ["a", "b"]


def test_value():
    assert store.get("xy") == "XY"
''')
