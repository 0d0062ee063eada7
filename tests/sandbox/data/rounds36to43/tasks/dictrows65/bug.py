p = 'a23lib/sizes.py'; s = open(p).read(); assert 'value /= 1024' in s; s = s.replace('value /= 1024', 'value /= 1000'); open(p, 'w').write(s)
