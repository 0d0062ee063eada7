s = open('a23lib/headers.py').read(); assert '"""\n' in s, 'a23lib/headers.py'; open('a23lib/headers.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
