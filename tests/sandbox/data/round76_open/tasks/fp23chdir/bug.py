s = open('a23lib/workdir.py').read(); assert '"""\n' in s, 'a23lib/workdir.py'; open('a23lib/workdir.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
