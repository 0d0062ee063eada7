p = "scripts/a23report.py"
s = open(p).read()
s = s.replace(" if w.strip())", ")").replace("w.strip().capitalize()", "w.capitalize()")
open(p, "w").write(s)
