p = 'a23lib/temps.py'; s = open(p).read(); assert '(fahrenheit - 32) * 5 / 9' in s; s = s.replace('(fahrenheit - 32) * 5 / 9', '(fahrenheit - 32) * 5 / 8'); open(p, 'w').write(s)
