s = open('a23lib/sessions.py').read(); assert '"""\n' in s, 'a23lib/sessions.py'; open('a23lib/sessions.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
