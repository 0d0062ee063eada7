p = "a23lib/tags.py"
s = open(p).read()
s = s.replace("Weight(int(weight)) if weight else None", "None")
open(p, "w").write(s)
