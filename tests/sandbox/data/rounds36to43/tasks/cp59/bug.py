s = open('a23lib/shape.py').read()
assert '("w", "h", "__dict__")' in s
open('a23lib/shape.py', 'w').write(s.replace('("w", "h", "__dict__")', '("w", "h")'))
