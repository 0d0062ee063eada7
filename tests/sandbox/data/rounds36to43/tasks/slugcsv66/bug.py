p = "a23lib/slug.py"; s = open(p).read(); t = s.replace('    text = unicodedata.normalize("NFKD", text)\n', ''); assert t != s; open(p, "w").write(t)
