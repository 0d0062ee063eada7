p = "a23lib/money.py"; s = open(p).read(); t = s.replace('(frac or "0").ljust(2, "0")', '(frac or "0").rjust(2, "0")'); assert t != s; open(p, "w").write(t)
