BUG = {'a23lib/color.py': [('int(text[4:6], 16)', 'int(text[3:5], 16)')]}
for p, reps in BUG.items():
    s = open(p).read()
    for a, b in reps:
        assert a in s, (p, a)
        s = s.replace(a, b)
    open(p, 'w').write(s)
