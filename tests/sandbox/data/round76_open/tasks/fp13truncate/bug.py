s = open('a23lib/logfile.py').read(); assert '"""\n' in s, 'a23lib/logfile.py'; open('a23lib/logfile.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
