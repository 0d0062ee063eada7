import json
E = json.loads('[["a23lib/money.py", "(1 if i < extra else 0)", "(1 if i < extra - 1 else 0)"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
