p = 'a23lib/money.py'; s = open(p).read(); assert 'frac = (frac + "00")[:2]' in s; s = s.replace('frac = (frac + "00")[:2]', 'frac = frac or "0"'); open(p, 'w').write(s)
