import json
E = json.loads('[["a23lib/resources.py", "\\n    @classmethod\\n    def __subclasshook__(cls, C):\\n        if cls is Closeable:\\n            return callable(getattr(C, \\"close\\", None)) or NotImplemented\\n        return NotImplemented\\n", ""]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
