p = 'a23lib/words2.py'; s = open(p).read(); assert 'w.casefold() for w in' in s; s = s.replace('w.casefold() for w in', 'w for w in'); open(p, 'w').write(s)
