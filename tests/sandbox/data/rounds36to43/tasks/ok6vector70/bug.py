BUG = {'a23lib/vec.py': [('self.x * math.sin(a) + self.y * math.cos(a)', 'self.x * math.sin(a) - self.y * math.cos(a)')]}
for p, reps in BUG.items():
    s = open(p).read()
    for a, b in reps:
        assert a in s, (p, a)
        s = s.replace(a, b)
    open(p, 'w').write(s)
