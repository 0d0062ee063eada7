p = "a23lib/words.py"
s = open(p).read()
s = s.replace('r"[^a-z0-9]+"', 'r"\\s+"')
open(p, "w").write(s)
