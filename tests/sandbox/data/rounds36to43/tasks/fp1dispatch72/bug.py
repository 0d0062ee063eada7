import json
E = json.loads('[["a23lib/errors.py", "@status_for.register(PermissionError)\\ndef _(exc):\\n    return 403\\n\\n\\n", ""]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
