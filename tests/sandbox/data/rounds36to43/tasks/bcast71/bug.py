p = "a23lib/bus.py"; s = open(p).read(); s = s.replace("        if id(sub) in seen:\n            continue\n", ""); open(p, "w").write(s)
