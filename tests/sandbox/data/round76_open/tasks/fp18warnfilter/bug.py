s = open('a23lib/reader.py').read(); assert '"""\n' in s, 'a23lib/reader.py'; open('a23lib/reader.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
