p = "a23lib/isort.py"; s = open(p).read(); s = s.replace("        out.insert(i, x)", "        if x not in out:\n            out.insert(i, x)"); open(p, "w").write(s)
