p = 'a23lib/roman.py'; s = open(p).read(); assert '(900, "CM"), ' in s; s = s.replace('(900, "CM"), ', ''); open(p, 'w').write(s)
p = 'a23lib/roman.py'; s = open(p).read(); assert '(90, "XC"),\n          ' in s; s = s.replace('(90, "XC"),\n          ', ''); open(p, 'w').write(s)
p = 'a23lib/roman.py'; s = open(p).read(); assert '(9, "IX"), ' in s; s = s.replace('(9, "IX"), ', ''); open(p, 'w').write(s)
