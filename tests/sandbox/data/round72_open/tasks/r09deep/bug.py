import json
E = json.loads('[["a23lib/tree.py", "    out, stack = [], [iter(nested)]\\n    while stack:\\n        for x in stack[-1]:\\n            if isinstance(x, list):\\n                stack.append(iter(x))\\n                break\\n            out.append(x)\\n        else:\\n            stack.pop()\\n    return out\\n", "    out = []\\n    for x in nested:\\n        if isinstance(x, list):\\n            out.extend(flatten(x))\\n        else:\\n            out.append(x)\\n    return out\\n"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
