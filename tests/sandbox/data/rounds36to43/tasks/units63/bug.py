p = 'a23lib/sizes.py'; s = open(p).read(); assert 'if size < 1024 or' in s; s = s.replace('if size < 1024 or', 'if size <= 1024 or'); open(p, 'w').write(s)
