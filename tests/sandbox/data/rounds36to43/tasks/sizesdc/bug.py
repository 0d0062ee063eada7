p = "a23lib/sizesdc.py"
s = open(p).read()
s = s.replace('Unit("MB", 10**6)', 'Unit("MB", 10**5)')
open(p, "w").write(s)
