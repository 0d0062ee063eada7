s = open('a23lib/m.py').read(); assert '    return xml\n' in s, 'a23lib/m.py'; open('a23lib/m.py', 'w').write(s.replace('    return xml\n', '    return xml + "\\n"\n', 1))
