import json
E = json.loads('[["a23lib/session.py", "field(default_factory=time.time, compare=False)", "field(default_factory=time.time)"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
