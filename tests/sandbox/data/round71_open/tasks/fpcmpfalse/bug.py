p = "a23lib/cache.py"; s = open(p).read(); s = s.replace("field(default_factory=time.time, compare=False)", "field(default_factory=time.time)"); open(p, "w").write(s)
