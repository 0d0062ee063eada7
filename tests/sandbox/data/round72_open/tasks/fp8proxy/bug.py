import json
E = json.loads('[["a23lib/lazy.py", "\\n    @property\\n    def __class__(self):\\n        \\"\\"\\"isinstance() sees the wrapped object\'s class, as with other proxies.\\"\\"\\"\\n        return type(self._get())\\n", ""]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
