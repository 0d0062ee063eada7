p = 'a23lib/tags.py'; s = open(p).read(); assert '#(\\w+)' in s; s = s.replace('#(\\w+)', '#([A-Za-z]+)'); open(p, 'w').write(s)
