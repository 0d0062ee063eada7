p = "a23lib/unitsub2.py"
s = open(p).read()
s = s.replace("    factor = 10**6", "    factor = 10**5")
open(p, "w").write(s)
