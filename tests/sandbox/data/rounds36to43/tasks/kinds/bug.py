p = "a23lib/lex.py"; s = open(p).read(); s2 = s.replace("(?P<NUM>\\d+(?:\\.\\d+)?)", "(?P<NUM>\\d+)"); assert s2 != s; open(p, "w").write(s2)
