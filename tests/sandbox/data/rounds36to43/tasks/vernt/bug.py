p = "a23lib/vernt.py"
s = open(p).read()
s = s.replace("    return int(text)\n", "    return int(text[:1])\n")
open(p, "w").write(s)
