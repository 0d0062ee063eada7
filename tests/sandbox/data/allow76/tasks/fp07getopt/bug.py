s = open('a23lib/cli.py').read(); assert '"""\n' in s, 'a23lib/cli.py'; open('a23lib/cli.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
