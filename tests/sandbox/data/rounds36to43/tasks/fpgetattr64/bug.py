p = "a23lib/app.py"; s = open(p).read(); s2 = s.replace('getattr(settings, "WORKERS", 1)', 'getattr(settings, "WORKERS", 0) or 4'); assert s2 != s; open(p, "w").write(s2)
