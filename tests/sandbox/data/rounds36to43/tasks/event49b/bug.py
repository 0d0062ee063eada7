p = "a23lib/items.py"
s = open(p).read()
s = s.replace("return Event(self.name, day, source", "return Event(self.name, self.day, source")
open(p, "w").write(s)
