open("a23lib/cache.py", "w").write('''"""Cached entries."""
import time
from dataclasses import dataclass, field


@dataclass
class Entry:
    """A cached value. When it was fetched is bookkeeping: it does not take part in equality."""
    key: str
    value: object
    fetched_at: float = field(default_factory=time.time, compare=False)
''')
open("tests/test_cache.py", "w").write('''from a23lib.cache import Entry


def test_equal_regardless_of_fetch_time():
    assert Entry("a", 1, fetched_at=1.0) == Entry("a", 1, fetched_at=2.0)


def test_value_matters():
    assert Entry("a", 1) != Entry("a", 2)
''')
