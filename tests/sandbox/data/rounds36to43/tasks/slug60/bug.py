p = "a23lib/slug.py"; s = open(p).read(); s = s.replace("w.lower() for w in words", "w for w in words"); open(p, "w").write(s)
