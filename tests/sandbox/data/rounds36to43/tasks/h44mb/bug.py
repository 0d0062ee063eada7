p = "a23lib/methods.py"
s = open(p).read()
s = s.replace('PATCH = "PATCH"', 'PATCH = "PACTH"')
open(p, "w").write(s)
