open("a23lib/cfgmap.py", "w").write('''"""Client settings: what the caller set, over the documented defaults."""
import collections.abc

_DEFAULTS = {"timeout": 30, "retries": 3, "verify": True}


class Settings(collections.abc.Mapping):
    """A read-only view of explicit settings over `_DEFAULTS`; equal to any mapping with the same effective values."""

    def __init__(self, given=None):
        self._given = dict(given or {})

    def __getitem__(self, key):
        if key in self._given:
            return self._given[key]
        return _DEFAULTS[key]

    def __iter__(self):
        return iter({**_DEFAULTS, **self._given})

    def __len__(self):
        return len({**_DEFAULTS, **self._given})
''')
open("tests/test_cfgmap.py", "w").write('''from a23lib.cfgmap import Settings


def test_defaults():
    assert Settings({"retries": 5}) == Settings({"timeout": 30, "retries": 5})


def test_given():
    assert Settings({"verify": False})["verify"] is False
''')
