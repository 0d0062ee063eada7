p = 'a23lib/ordinal.py'; s = open(p).read(); assert 'if 10 <= n % 100 <= 20:' in s; s = s.replace('if 10 <= n % 100 <= 20:', 'if n % 100 == 10:'); open(p, 'w').write(s)
