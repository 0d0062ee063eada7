p = "a23lib/stats.py"; s = open(p).read(); s = s.replace('(len(xs) - 1 if sample else len(xs))', '(len(xs) if sample else len(xs) - 1)'); open(p, "w").write(s)
