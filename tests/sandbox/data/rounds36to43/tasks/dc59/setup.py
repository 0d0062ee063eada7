import os
os.makedirs(os.path.dirname('a23lib/track.py'), exist_ok=True)
open('a23lib/track.py', 'w').write('"""Counting wrappers."""\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass Tracked:\n    """Wraps a value, counts reads of it, and otherwise behaves like it."""\n    inner: object\n    reads: int = 0\n\n    def value(self):\n        self.reads += 1\n        return self.inner\n\n    def __getattr__(self, name):\n        return getattr(self.inner, name)\n')
os.makedirs(os.path.dirname('tests/test_track.py'), exist_ok=True)
open('tests/test_track.py', 'w').write('from a23lib.track import Tracked\n\n\ndef test_delegates():\n    assert Tracked("abc").upper() == "ABC"\n\n\ndef test_counts():\n    t = Tracked(3)\n    t.value(); t.value()\n    assert t.reads == 2\n')
