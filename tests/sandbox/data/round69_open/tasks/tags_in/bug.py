p = "a23lib/tags.py"; s = open(p).read(); s = s.replace("TagSet(t.strip().lower() for", "TagSet(t for"); open(p, "w").write(s)
