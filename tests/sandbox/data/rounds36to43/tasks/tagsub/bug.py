p = "a23lib/tagset.py"
s = open(p).read()
s = s.replace('if p.strip())', 'if len(p.strip()) > 2)')
open(p, "w").write(s)
