s = open('a23lib/msort.py').read(); assert 'return out + left + right' in s, 'a23lib/msort.py'; open('a23lib/msort.py', 'w').write(s.replace('return out + left + right', 'return out + left', 1))
