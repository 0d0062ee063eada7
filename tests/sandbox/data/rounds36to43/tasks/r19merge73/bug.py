s = open('a23lib/merge.py').read(); assert 'return out + a[i:] + b[j:]' in s, 'a23lib/merge.py'; open('a23lib/merge.py', 'w').write(s.replace('return out + a[i:] + b[j:]', 'return out + a[i:]', 1))
