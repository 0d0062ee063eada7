p = 'a23lib/sensor.py'
s = open(p).read()
assert 'raw * 1000 / 4095' in s
s = s.replace('raw * 1000 / 4095', 'raw * 1000 / 4096 / 2')
open(p, 'w').write(s)
