s = open('a23lib/pidfile.py').read(); assert '"""\n' in s, 'a23lib/pidfile.py'; open('a23lib/pidfile.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
