p = "a23lib/unitsrt2.py"
s = open(p).read()
s = s.replace('{"km": 1000,', '{"km": 100,')
open(p, "w").write(s)
