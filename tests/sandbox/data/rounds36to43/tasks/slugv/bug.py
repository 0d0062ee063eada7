p = "a23lib/slug.py"
s = open(p).read()
open(p, "w").write(s.replace('r"[A-Za-z0-9]+"', 'r"[A-Za-z]+"'))
