s = open('a23lib/web.py').read(); assert '"""\n' in s, 'a23lib/web.py'; open('a23lib/web.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
