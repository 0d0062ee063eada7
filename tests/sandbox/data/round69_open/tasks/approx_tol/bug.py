p = "a23lib/finance.py"; s = open(p).read(); s = s.replace("principal * (1 + rate) ** years", "principal * (1 + rate * years)"); open(p, "w").write(s)
