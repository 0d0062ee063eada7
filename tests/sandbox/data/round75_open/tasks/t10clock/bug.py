s = open('a23lib/temps.py').read(); assert 'return c * 9 / 5 + 32 if' in s, 'a23lib/temps.py'; open('a23lib/temps.py', 'w').write(s.replace('return c * 9 / 5 + 32 if', 'return c * 5 / 9 + 32 if', 1))
