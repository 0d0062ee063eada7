p = 'a23lib/parse.py'; s = open(p).read(); assert '        return -int(t[1:-1])' in s; s = s.replace('        return -int(t[1:-1])', '        return int(t[1:-1])'); open(p, 'w').write(s)
