s = open('a23lib/m.py').read(); assert '    if units >= 100:\n' in s, 'a23lib/m.py'; open('a23lib/m.py', 'w').write(s.replace('    if units >= 100:\n', '    if units > 100:\n', 1))
