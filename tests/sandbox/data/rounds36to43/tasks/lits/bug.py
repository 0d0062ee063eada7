p = "a23lib/calc.py"
s = open(p).read()
s = s.replace("return x * 3", "return x + x", 1)
open(p, "w").write(s)
