p = 'a23lib/money.py'; s = open(p).read(); assert 'cur.upper())' in s; s = s.replace('cur.upper())', 'cur)'); open(p, 'w').write(s)
