p = 'a23lib/convert.py'; s = open(p).read(); assert 'cell.strip() for cell in r' in s; s = s.replace('cell.strip() for cell in r', 'cell for cell in r'); open(p, 'w').write(s)
