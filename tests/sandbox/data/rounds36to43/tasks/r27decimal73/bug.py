s = open('a23lib/till.py').read(); assert '    for p in prices:\n' in s, 'a23lib/till.py'; open('a23lib/till.py', 'w').write(s.replace('    for p in prices:\n', '    for p in prices[:-1]:\n', 1))
