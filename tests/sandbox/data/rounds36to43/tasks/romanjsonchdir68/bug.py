s = open('a23lib/roman.py').read(); assert '(900, "CM"), ' in s; open('a23lib/roman.py', 'w').write(s.replace('(900, "CM"), ', ''))
s = open('a23lib/roman.py').read(); assert '(90, "XC"),\n          ' in s; open('a23lib/roman.py', 'w').write(s.replace('(90, "XC"),\n          ', ''))
s = open('a23lib/roman.py').read(); assert '(9, "IX"), ' in s; open('a23lib/roman.py', 'w').write(s.replace('(9, "IX"), ', ''))
