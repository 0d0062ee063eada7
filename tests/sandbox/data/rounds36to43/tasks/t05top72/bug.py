import json
E = json.loads('[["a23lib/rank.py", "return sorted(scores, reverse=True)[:n]", "return sorted(scores)[:n][::-1] if n < len(scores) else sorted(scores, reverse=True)"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
