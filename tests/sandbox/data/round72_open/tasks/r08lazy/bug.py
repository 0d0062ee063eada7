import json
E = json.loads('[["a23lib/index.py", "        self.positions = {}\\n        for i, rec in enumerate(records):\\n            self.positions.setdefault(rec[key], []).append(i)\\n", "        self.positions = {}\\n        for i, rec in enumerate(records):\\n            self.positions[rec[key]] = [j for j, r in enumerate(records[: i + 1]) if r[key] == rec[key]]\\n"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
