p = "a23lib/codegen.py"
s = open(p).read()
s = s.replace('rep = ", ".join(', 'rep = "; ".join(')
open(p, "w").write(s)
