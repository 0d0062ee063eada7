p = "a23lib/triangle.py"; s = open(p).read(); t = s.replace("    x, y, z = sorted((a, b, c))", "    x, y, z = a, b, c"); assert t != s; open(p, "w").write(t)
