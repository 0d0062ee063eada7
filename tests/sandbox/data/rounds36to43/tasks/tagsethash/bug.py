p = "a23lib/tagset.py"
s = open(p).read()
s = s.replace("    __hash__ = Set._hash\n\n", "")
open(p, "w").write(s)
