import json, os
F = json.loads('{"a23lib/jobs.py": "\\"\\"\\"Jobs.\\"\\"\\"\\nimport threading\\nfrom dataclasses import dataclass, field\\n\\n\\n@dataclass\\nclass Job:\\n    name: str\\n    args: tuple = ()\\n    _lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)\\n\\n    def __getstate__(self):\\n        state = dict(self.__dict__)\\n        del state[\\"_lock\\"]\\n        return state\\n\\n    def __setstate__(self, state):\\n        self.__dict__.update(state)\\n        self._lock = threading.Lock()\\n", "tests/test_jobs.py": "import pickle\\n\\nfrom a23lib.jobs import Job\\n\\n\\ndef test_pickle_roundtrip():\\n    job = Job(\\"send\\", (\\"a@b\\",))\\n    assert pickle.loads(pickle.dumps(job)) == job\\n\\n\\ndef test_fields():\\n    assert Job(\\"x\\").args == ()\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
