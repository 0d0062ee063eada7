p = "a23lib/intlist.py"; s = open(p).read(); t = s.replace("col {exc.col + 1}", "col {exc.col}"); assert t != s; open(p, "w").write(t)
