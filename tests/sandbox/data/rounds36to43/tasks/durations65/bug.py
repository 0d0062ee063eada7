p = 'a23lib/duration.py'; s = open(p).read(); assert '"m": "minutes"' in s; s = s.replace('"m": "minutes"', '"m": "seconds"'); open(p, 'w').write(s)
