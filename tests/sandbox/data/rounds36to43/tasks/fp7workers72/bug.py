import json
E = json.loads('[["a23lib/workers.py", "    try:\\n        n = len(os.sched_getaffinity(0))\\n    except AttributeError:  # not on Linux\\n        n = os.cpu_count() or 1\\n    return max(1, n)", "    return (os.cpu_count() or 1) + 1"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
