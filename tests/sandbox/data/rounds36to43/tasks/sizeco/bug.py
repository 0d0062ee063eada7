p = "a23lib/sizeco.py"
s = open(p).read()
s = s.replace('"MB": 10**6', '"MB": 10**5', 1)
open(p, "w").write(s)
