import json
E = json.loads('[["a23lib/cache.py", "if len(self.data) >= self.size and key not in self.data:", "if len(self.data) >= self.size:"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
