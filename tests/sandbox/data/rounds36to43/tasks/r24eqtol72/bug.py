import json
E = json.loads('[["a23lib/money.py", "int(net * (1 + tax_rate) + 0.5)", "int(net * (1 + tax_rate))"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
