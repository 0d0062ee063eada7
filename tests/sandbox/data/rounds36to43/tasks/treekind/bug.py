p = "a23lib/treekind.py"
s = open(p).read()
s = s.replace("self.parent = weakref.proxy(parent) if parent is not None else None", "self.parent = parent")
open(p, "w").write(s)
