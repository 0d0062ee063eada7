s = open('a23lib/cfgerr.py').read(); assert '"""\n' in s, 'a23lib/cfgerr.py'; open('a23lib/cfgerr.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
