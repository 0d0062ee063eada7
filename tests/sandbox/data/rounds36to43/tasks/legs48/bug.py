p = "a23lib/legs.py"
s = open(p).read()
s = s.replace("Length(float(number) * UNITS[unit])", "Length(float(number))")
open(p, "w").write(s)
