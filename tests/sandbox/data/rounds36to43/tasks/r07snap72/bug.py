import json
E = json.loads('[["a23lib/orders.py", "    return sum(item.price * (1 - pct) for item in order.items)\\n", "    for item in order.items:\\n        item.price = item.price * (1 - pct)\\n    return sum(item.price for item in order.items)\\n"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
