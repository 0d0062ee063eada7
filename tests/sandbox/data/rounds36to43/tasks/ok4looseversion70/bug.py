BUG = {'a23lib/looseversion.py': [('        if isinstance(other, str):\n            other = LooseVersion(other)\n', '')]}
for p, reps in BUG.items():
    s = open(p).read()
    for a, b in reps:
        assert a in s, (p, a)
        s = s.replace(a, b)
    open(p, 'w').write(s)
