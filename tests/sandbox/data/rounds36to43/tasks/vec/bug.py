p = "a23lib/vec.py"
s = open(p).read()
s = s.replace("a.y + b.y)", "a.y + b.x)")
open(p, "w").write(s)
