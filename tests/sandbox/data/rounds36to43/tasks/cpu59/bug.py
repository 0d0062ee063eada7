s = open('a23lib/timing.py').read()
assert '    user: float\n    sys: float\n' in s
open('a23lib/timing.py', 'w').write(s.replace('    user: float\n    sys: float\n', '    user: float\n    system: float = 0.0\n'))
