BUG = {'a23lib/headers.py': [('    def __contains__(self, key):\n        return isinstance(key, str) and key.lower() in self._store\n', '    def __contains__(self, key):\n        return key in self._store\n'), ('return self._store[key.lower()][1]', 'return self._store[key][1]')]}
for p, reps in BUG.items():
    s = open(p).read()
    for a, b in reps:
        assert a in s, (p, a)
        s = s.replace(a, b)
    open(p, 'w').write(s)
