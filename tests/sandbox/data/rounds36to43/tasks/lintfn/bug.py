p = "a23lib/lintfn.py"
s = open(p).read()
s = s.replace("if len(line) > LIMIT:", "if len(line) >= LIMIT:")
open(p, "w").write(s)
