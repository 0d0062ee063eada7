p = "a23lib/sizemod_units.py"
s = open(p).read()
s = s.replace('"MB": 10**6', '"MB": 10**5')
open(p, "w").write(s)
