p = "a23lib/files.py"
s = open(p).read()
open(p, "w").write(s.replace('encoding="utf-8"):', 'encoding="latin-1"):'))
