s = open('a23lib/cookies.py').read(); assert '"""\n' in s, 'a23lib/cookies.py'; open('a23lib/cookies.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
