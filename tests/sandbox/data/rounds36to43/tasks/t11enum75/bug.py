s = open('a23lib/sniff.py').read(); assert '    s = head.lstrip()' in s, 'a23lib/sniff.py'; open('a23lib/sniff.py', 'w').write(s.replace('    s = head.lstrip()', '    s = head', 1))
