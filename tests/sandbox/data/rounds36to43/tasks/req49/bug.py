p = "a23lib/reqs.py"
s = open(p).read()
s = s.replace("name.strip().lower()", "name.strip()")
open(p, "w").write(s)
