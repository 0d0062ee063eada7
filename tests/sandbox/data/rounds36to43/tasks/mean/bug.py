p = "a23lib/stats.py"; s = open(p).read(); s = s.replace("sum(xs) / len(xs)", "sum(xs) / (len(xs) + 1) * 1 if len(xs) > 1 else sum(xs) / len(xs)"); open(p, "w").write(s)
