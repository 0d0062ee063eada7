p = 'a23lib/wrap.py'; s = open(p).read(); assert 'len(line) + 1 + len(word) > width' in s; s = s.replace('len(line) + 1 + len(word) > width', 'len(line) + len(word) > width'); open(p, 'w').write(s)
