s = open('a23lib/m.py').read(); assert '    return True\n' in s, 'a23lib/m.py'; open('a23lib/m.py', 'w').write(s.replace('    return True\n', '    return 1\n', 1))
