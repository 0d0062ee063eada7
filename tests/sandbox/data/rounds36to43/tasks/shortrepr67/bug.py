p = "a23lib/show.py"; s = open(p).read(); s = s.replace("MAXSTRING = 30", "MAXSTRING = 24"); open(p, "w").write(s)
