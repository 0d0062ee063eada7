p = "a23lib/greet.py"
s = open(p).read()
s = s.replace("name.strip().upper()", "name.upper()")
open(p, "w").write(s)
