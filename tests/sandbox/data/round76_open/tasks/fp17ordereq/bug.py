s = open('a23lib/perms.py').read(); assert '"""\n' in s, 'a23lib/perms.py'; open('a23lib/perms.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
