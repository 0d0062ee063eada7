p = "a23lib/verneg.py"
s = open(p).read()
s = s.replace("    return int(text)\n", "    return int(text[:1])\n")
open(p, "w").write(s)
