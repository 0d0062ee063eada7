p = "a23lib/slicer.py"
s = open(p).read()
s = s.replace("int(p) if p else None", "int(p) + 1 if p else None")
open(p, "w").write(s)
