BUG = {'a23lib/dur.py': [('h * 3600 + m * 60 + s', 'h * 60 + m * 60 + s')]}
for p, reps in BUG.items():
    s = open(p).read()
    for a, b in reps:
        assert a in s, (p, a)
        s = s.replace(a, b)
    open(p, 'w').write(s)
