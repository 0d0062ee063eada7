s = open('a23lib/quota.py').read(); assert '"""\n' in s, 'a23lib/quota.py'; open('a23lib/quota.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
