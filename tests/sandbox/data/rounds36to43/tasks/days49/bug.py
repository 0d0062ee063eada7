p = "a23lib/days.py"
s = open(p).read()
s = s.replace("        if day not in out:\n            out.append(day)", "        out.append(day)")
open(p, "w").write(s)
