p = "a23lib/versort.py"
s = open(p).read()
s = s.replace("    return int(text)\n", "    return int(text[:1])\n")
open(p, "w").write(s)
