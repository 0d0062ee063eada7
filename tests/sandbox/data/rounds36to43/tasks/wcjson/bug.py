p = 'a23lib/words.py'; s = open(p).read(); assert 'return len(text.split())' in s; s = s.replace('return len(text.split())', 'return len(text.split(" ")) if text else 0'); open(p, 'w').write(s)
