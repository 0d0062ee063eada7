import json
E = json.loads('[["a23lib/level.py", "if score >= 80:", "if score > 80:"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
