p = "a23lib/utils.py"
s = open(p).read()
open(p, "w").write(s.replace('"-".join(text.lower().split())', '"-".join(text.split())'))
