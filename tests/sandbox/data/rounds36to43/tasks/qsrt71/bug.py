p = "a23lib/qs.py"; s = open(p).read(); s = s.replace('quote(k, safe=""), quote(v, safe="")', 'k, v.replace(" ", "%20")'); open(p, "w").write(s)
