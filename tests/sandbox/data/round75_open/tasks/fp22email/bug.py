s = open('a23lib/m.py').read(); assert '    return None\n' in s, 'a23lib/m.py'; open('a23lib/m.py', 'w').write(s.replace('    return None\n', '    return {}\n', 1))
