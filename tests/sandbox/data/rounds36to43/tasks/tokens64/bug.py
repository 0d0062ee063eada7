p = "a23lib/tokens.py"; s = open(p).read(); s2 = s.replace('(\\*\\*|[-+*/()])', '([-+*/()]|\\*\\*)'); assert s2 != s; open(p, "w").write(s2)
