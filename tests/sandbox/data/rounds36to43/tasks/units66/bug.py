p = "a23lib/units.py"; s = open(p).read(); t = s.replace('"mi": 1609.344, "ft": 0.3048, "in": 0.0254', '"mi": 1609.0, "ft": 0.3, "in": 0.0254'); assert t != s; open(p, "w").write(t)
