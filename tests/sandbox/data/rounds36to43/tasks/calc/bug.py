p = "a23lib/calc.py"
s = open(p).read()
s = s.replace("sum(xs) / len(xs)", "sum(xs) // len(xs)")
open(p, "w").write(s)
