s = open('a23lib/arrays.py').read(); assert '"""\n' in s, 'a23lib/arrays.py'; open('a23lib/arrays.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
