s = open('a23lib/tls.py').read(); assert '"""\n' in s, 'a23lib/tls.py'; open('a23lib/tls.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
