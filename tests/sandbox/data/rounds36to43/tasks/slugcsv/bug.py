p = 'a23lib/text.py'; s = open(p).read(); assert 'r"[^a-z0-9]+"' in s; s = s.replace('r"[^a-z0-9]+"', 'r"[^a-z0-9]"'); open(p, 'w').write(s)
