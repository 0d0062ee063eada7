p = "a23lib/vers.py"
s = open(p).read()
s = s.replace('    __le__ = partialmethod(_compare, op=operator.le)\n', '')
open(p, "w").write(s)
