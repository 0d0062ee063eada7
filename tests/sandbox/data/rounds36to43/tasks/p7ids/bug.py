p = 'a23lib/ext.py'
s = open(p).read()
assert '.lstrip(".").lower()' in s
s = s.replace('.lstrip(".").lower()', '.lstrip(".")')
open(p, 'w').write(s)
