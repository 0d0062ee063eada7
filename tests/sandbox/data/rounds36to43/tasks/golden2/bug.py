p = 'a23lib/report.py'; s = open(p).read(); assert '        total += qty * price' in s; s = s.replace('        total += qty * price', '        total += price'); open(p, 'w').write(s)
