p = "a23lib/pyver.py"
s = open(p).read()
s = s.replace('number.split(".")[:3]', 'number.split(".")[:2]')
open(p, "w").write(s)
