p = "a23lib/sizesvc.py"
s = open(p).read()
s = s.replace("return int(count * self.units[unit])", "return int(count) * self.units[unit]")
open(p, "w").write(s)
