p = "a23lib/sizeg.py"
s = open(p).read()
s = s.replace('"MB": 10**6', '"MB": 10**5')
open(p, "w").write(s)
