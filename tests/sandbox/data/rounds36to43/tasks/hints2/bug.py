p = "a23lib/ops.py"
s = open(p).read()
s = s.replace("return x * factor", "return x + factor")
open(p, "w").write(s)
