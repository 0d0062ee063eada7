s = open('a23lib/oldapi.py').read(); assert '"""\n' in s, 'a23lib/oldapi.py'; open('a23lib/oldapi.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
