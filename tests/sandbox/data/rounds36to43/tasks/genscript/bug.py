p = "a23lib/scriptgen.py"
s = open(p).read()
s = s.replace("name.strip().title()", "name.title()")
open(p, "w").write(s)
