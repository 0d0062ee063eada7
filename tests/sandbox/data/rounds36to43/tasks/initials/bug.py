p = 'a23lib/names.py'; s = open(p).read(); assert 'full_name.replace("-", " ").split()' in s; s = s.replace('full_name.replace("-", " ").split()', 'full_name.split()'); open(p, 'w').write(s)
