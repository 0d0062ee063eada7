s = open('a23lib/fizz.py').read(); assert '"""\n' in s, 'a23lib/fizz.py'; open('a23lib/fizz.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
