import json
E = json.loads('[["a23lib/lock.py", "        try:\\n            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)\\n        except FileExistsError:\\n            return False\\n        os.close(fd)\\n        return True", "        open(self.path, \\"w\\").close()\\n        return True"]]')
for p, old, new in E:
    if old is None:
        open(p, 'w').write(new); continue
    s = open(p).read()
    assert old in s, (p, old)
    open(p, 'w').write(s.replace(old, new, 1))
