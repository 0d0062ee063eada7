p = "a23lib/templates.py"
s = open(p).read()
open(p, "w").write(s.replace(".lower()", ""))
