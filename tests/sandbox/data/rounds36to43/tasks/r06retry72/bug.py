import json
E = json.loads('[["a23lib/retry.py", "        return result\\n", "        if i == 0:\\n            log.warning(\\"attempt %d failed (%s); retrying\\", i + 1, \\"no result\\")\\n            continue\\n        return result\\n"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
