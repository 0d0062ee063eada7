s = open('a23lib/timing.py').read(); assert '"""\n' in s, 'a23lib/timing.py'; open('a23lib/timing.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
