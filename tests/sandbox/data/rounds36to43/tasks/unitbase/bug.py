p = "a23lib/unitbase.py"
s = open(p).read()
s = s.replace("class Unit(ValueObject):", "class Unit:")
open(p, "w").write(s)
