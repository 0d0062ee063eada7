p = "a23lib/records.py"; s = open(p).read(); s = s.replace("import operator\n", "").replace("key=operator.attrgetter(field)", "key=lambda r: r.name"); open(p, "w").write(s)
