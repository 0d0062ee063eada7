p = "a23lib/unitsub.py"
s = open(p).read()
s = s.replace("    factor = 10**6", "    factor = 10**5")
open(p, "w").write(s)
