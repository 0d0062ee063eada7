s = open('a23lib/m.py').read(); assert '        return f.read()\n' in s, 'a23lib/m.py'; open('a23lib/m.py', 'w').write(s.replace('        return f.read()\n', '        return f.read()\n\n', 1))
