p = "a23lib/tok.py"; s = open(p).read(); s2 = s.replace("[A-Za-z_]\\w*", "[A-Za-z_]+"); assert s2 != s; open(p, "w").write(s2)
