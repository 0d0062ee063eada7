p = "a23lib/slug.py"
s = open(p).read()
s = s.replace("text.lower()", "text")
open(p, "w").write(s)
