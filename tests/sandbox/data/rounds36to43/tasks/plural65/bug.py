p = 'a23lib/plural.py'; s = open(p).read(); assert 'return word[:-1] + "ies"' in s; s = s.replace('return word[:-1] + "ies"', 'return word + "s"'); open(p, 'w').write(s)
