p = "a23lib/geometry.py"; s = open(p).read(); s = s.replace("Length(2 * math.pi * radius)", "Length(2 * 3.1416 * radius)"); open(p, "w").write(s)
