p = "a23lib/shout.py"
s = open(p).read()
s = s.replace("return text.upper() + \"!\"", "return text + \"!\"")
open(p, "w").write(s)
