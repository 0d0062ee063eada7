BUG = {'a23lib/quantity.py': [('"ft": 0.3048', '"ft": 0.3')]}
for p, reps in BUG.items():
    s = open(p).read()
    for a, b in reps:
        assert a in s, (p, a)
        s = s.replace(a, b)
    open(p, 'w').write(s)
