import json
E = json.loads('[["a23lib/api_errors.py", "if self.detail not in (None, \\"\\") else message", "if self.detail else message"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
