s = open('a23lib/money2.py').read(); assert '"""\n' in s, 'a23lib/money2.py'; open('a23lib/money2.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
