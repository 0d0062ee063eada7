s = open('a23lib/m.py').read(); assert '    return 0\n' in s, 'a23lib/m.py'; open('a23lib/m.py', 'w').write(s.replace('    return 0\n', '    return -1\n', 1))
