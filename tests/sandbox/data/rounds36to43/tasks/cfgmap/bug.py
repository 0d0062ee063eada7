p = "a23lib/cfgmap.py"
s = open(p).read()
s = s.replace('"timeout": 30,', '"timeout": 3,')
open(p, "w").write(s)
