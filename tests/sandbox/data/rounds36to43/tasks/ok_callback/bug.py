p = 'a23lib/retry.py'; s = open(p).read(); assert '            return fn()\n' in s; s = s.replace('            return fn()\n', '            fn()\n            return None\n'); open(p, 'w').write(s)
