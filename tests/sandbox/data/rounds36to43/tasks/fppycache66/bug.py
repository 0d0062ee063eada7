p = 'a23lib/walk.py'; s = open(p).read()
for a, b in [('and d != "__pycache__"', '')]:
    assert a in s, a
    s = s.replace(a, b)
open(p, 'w').write(s)
