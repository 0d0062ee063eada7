p = "a23lib/rec.py"
s = open(p).read()
open(p, "w").write(s.replace('"-".join(text.lower().split())', '"-".join(text.split())'))
