p = "a23lib/poly.py"
s = open(p).read()
s = s.replace("return abs(twice) / 2", "return twice / 2")
open(p, "w").write(s)
