BUG = {'a23lib/geo.py': [('(a.y + b.y) / 2', '(a.y + b.x) / 2')]}
for p, reps in BUG.items():
    s = open(p).read()
    for a, b in reps:
        assert a in s, (p, a)
        s = s.replace(a, b)
    open(p, 'w').write(s)
