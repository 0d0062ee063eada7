s = open('a23lib/temps2.py').read(); assert 'return (f - 32) * 5 / 9' in s, 'a23lib/temps2.py'; open('a23lib/temps2.py', 'w').write(s.replace('return (f - 32) * 5 / 9', 'return (f - 32) * 9 / 5', 1))
