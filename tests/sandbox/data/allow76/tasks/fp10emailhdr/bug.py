s = open('a23lib/mail.py').read(); assert '"""\n' in s, 'a23lib/mail.py'; open('a23lib/mail.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
