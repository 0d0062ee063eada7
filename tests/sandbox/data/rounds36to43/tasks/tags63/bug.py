p = 'a23lib/tags.py'; s = open(p).read(); assert 't.strip().lower() for t' in s; s = s.replace('t.strip().lower() for t', 't.strip() for t'); open(p, 'w').write(s)
