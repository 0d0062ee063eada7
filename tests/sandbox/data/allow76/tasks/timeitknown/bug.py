s = open('a23lib/timing.py').read()
assert 'clock() - start' in s
open('a23lib/timing.py', 'w').write(s.replace('clock() - start', 'start - clock()', 1))
