p = "a23lib/stats.py"
s = open(p).read()
s = s.replace("return sum(xs) / len(xs)", "return sum(xs) / (len(xs) + 1)")
open(p, "w").write(s)
