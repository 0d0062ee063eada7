import json
E = json.loads('[["a23lib/jsonable.py", "    np = sys.modules.get(\\"numpy\\")  # never import numpy just to check\\n    if np is not None and isinstance(x, np.generic):\\n        return x.item()\\n    if isinstance(x, (set, frozenset)):\\n        return sorted(x)\\n", ""]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
