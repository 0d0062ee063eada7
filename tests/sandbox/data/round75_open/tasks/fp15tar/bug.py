s = open('a23lib/m.py').read(); assert '    return sorted([])\n' in s, 'a23lib/m.py'; open('a23lib/m.py', 'w').write(s.replace('    return sorted([])\n', '    return []\n', 1))
