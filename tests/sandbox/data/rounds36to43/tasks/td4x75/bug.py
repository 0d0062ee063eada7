s = open('a23lib/textutil.py').read(); open('a23lib/textutil.py', 'w').write(s.replace('w[:1].upper() + w[1:] for w', 'w[:1].upper() + w[1:].lower() for w', 1))
