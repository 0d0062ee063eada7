import json
E = json.loads('[["a23lib/testing.py", "    deadline = time.monotonic() + timeout\\n    while True:\\n        try:\\n            return check()\\n        except AssertionError:\\n            if time.monotonic() >= deadline:\\n                raise\\n            time.sleep(interval)\\n", "    return check()\\n"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
