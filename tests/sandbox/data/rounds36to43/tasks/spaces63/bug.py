p = 'a23lib/slug.py'; s = open(p).read(); assert '.strip("-")' in s; s = s.replace('.strip("-")', ''); open(p, 'w').write(s)
