p = "a23lib/sizedisp.py"
s = open(p).read()
s = s.replace("    return n * 10**6\n", "    return n * 10**5\n")
open(p, "w").write(s)
