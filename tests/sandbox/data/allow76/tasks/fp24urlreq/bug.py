s = open('a23lib/api.py').read(); assert '"""\n' in s, 'a23lib/api.py'; open('a23lib/api.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
