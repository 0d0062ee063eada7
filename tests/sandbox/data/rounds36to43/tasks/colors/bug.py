p = 'a23lib/colors.py'; s = open(p).read(); assert '_NAMED[name.strip().lower()]' in s; s = s.replace('_NAMED[name.strip().lower()]', '_NAMED[name.strip()]'); open(p, 'w').write(s)
