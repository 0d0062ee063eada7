p = 'a23lib/roster.py'; s = open(p).read(); assert 'key=operator.attrgetter(*ORDER)' in s; s = s.replace('key=operator.attrgetter(*ORDER)', 'key=lambda p: p.last'); open(p, 'w').write(s)
