s = open('a23lib/clock.py').read(); assert '        h += 12\n' in s, 'a23lib/clock.py'; open('a23lib/clock.py', 'w').write(s.replace('        h += 12\n', '        h += 10\n', 1))
