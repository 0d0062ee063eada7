open("a23lib/registry.py", "w").write('''"""Codecs registered by name; names are case-insensitive."""


class Registry:
    """Codecs by name. Looking a name up ignores its case and surrounding blanks."""

    def __init__(self):
        self._codecs = {}

    def _key(self, name):
        return name.strip().lower()

    def register(self, name, codec):
        """Add codec under name; registering a name again replaces its codec."""
        self._codecs[self._key(name)] = codec

    def __getitem__(self, name):
        return self._codecs[self._key(name)]

    def __len__(self):
        return len(self._codecs)
''')
open("tests/test_registry.py", "w").write('''from a23lib.registry import Registry


def test_same_name_any_case():
    reg = Registry()
    reg.register("JSON", "a")
    reg.register(" json", "b")
    assert len(reg) == 1
    assert reg["Json"] == "b"


def test_two():
    reg = Registry()
    reg.register("json", 1)
    reg.register("yaml", 2)
    assert reg["yaml"] == 2
''')
