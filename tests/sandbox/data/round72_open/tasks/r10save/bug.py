import json
E = json.loads('[["a23lib/store.py", "        json.dump(doc, f)\\n    os.replace(tmp, path)\\n", "        json.dump(doc, f)\\n    with open(path, \\"w\\") as f:\\n        json.dump(doc, f)\\n"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
