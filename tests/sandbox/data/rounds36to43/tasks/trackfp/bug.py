p = "a23lib/names.py"
s = open(p).read()
s = s.replace("name.strip().lower()", "name.lower()")
open(p, "w").write(s)
