import json
E = json.loads('[["a23lib/conf.py", "    with open(path) as f:\\n        return json.load(f)\\n", "    f = open(path)\\n    return json.load(f)\\n"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
