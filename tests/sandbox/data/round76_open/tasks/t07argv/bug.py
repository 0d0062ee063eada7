s = open('a23lib/temps.py').read(); assert 'if celsius >= limit:' in s, 'a23lib/temps.py'; open('a23lib/temps.py', 'w').write(s.replace('if celsius >= limit:', 'if celsius > limit:', 1))
