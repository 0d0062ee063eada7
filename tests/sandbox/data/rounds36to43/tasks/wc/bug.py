p = 'a23lib/wc.py'; s = open(p).read(); assert 'w.casefold()' in s; s = s.replace('w.casefold()', 'w'); open(p, 'w').write(s)
