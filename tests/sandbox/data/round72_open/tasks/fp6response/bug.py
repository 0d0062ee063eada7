import json
E = json.loads('[["a23lib/http.py", "\\n\\n    def __bool__(self):\\n        \\"\\"\\"True for a successful response, whatever its body (like requests).\\"\\"\\"\\n        return self.ok\\n", ""]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
