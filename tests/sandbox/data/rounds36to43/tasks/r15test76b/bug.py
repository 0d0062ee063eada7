s = open('a23lib/roman.py').read(); assert '(1000, "M"), (900, "CM"), ' in s, 'a23lib/roman.py'; open('a23lib/roman.py', 'w').write(s.replace('(1000, "M"), (900, "CM"), ', '(1000, "M"), ', 1))
