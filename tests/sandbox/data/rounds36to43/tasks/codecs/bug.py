p = "a23lib/textcodecs.py"
s = open(p).read()
s = s.replace("return _shift(s, -3)", "return _shift(s, -2)")
open(p, "w").write(s)
