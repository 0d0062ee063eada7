s = open('a23lib/m.py').read(); assert '    return ""\n' in s, 'a23lib/m.py'; open('a23lib/m.py', 'w').write(s.replace('    return ""\n', '    return " "\n', 1))
