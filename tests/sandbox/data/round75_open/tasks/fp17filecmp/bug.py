s = open('a23lib/m.py').read(); assert '    return False\n' in s, 'a23lib/m.py'; open('a23lib/m.py', 'w').write(s.replace('    return False\n', '    return None\n', 1))
