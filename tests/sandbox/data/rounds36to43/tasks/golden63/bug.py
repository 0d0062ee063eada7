p = 'a23lib/table.py'; s = open(p).read(); assert 'max(len(r[i]) for r in rows)' in s; s = s.replace('max(len(r[i]) for r in rows)', 'len(rows[0][i])'); open(p, 'w').write(s)
