p = "a23lib/num.py"; s = open(p).read(); s = s.replace("    if x < lo:\n        return lo\n", ""); open(p, "w").write(s)
