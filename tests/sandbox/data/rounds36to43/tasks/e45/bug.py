p = "a23lib/units.py"
s = open(p).read()
s = s.replace("""    __hash__ = Enum.__hash__

""", "")
open(p, "w").write(s)
