import json
E = json.loads('[["a23lib/jobs.py", "\\n    def __getstate__(self):\\n        state = dict(self.__dict__)\\n        del state[\\"_lock\\"]\\n        return state\\n\\n    def __setstate__(self, state):\\n        self.__dict__.update(state)\\n        self._lock = threading.Lock()\\n", ""]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
