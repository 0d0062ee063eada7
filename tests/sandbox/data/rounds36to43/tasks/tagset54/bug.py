p = "a23lib/tags.py"; s = open(p).read(); s = s.replace("{t.lower() for t", "{t for t"); open(p, "w").write(s)
