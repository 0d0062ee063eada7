p = "a23lib/slug.py"
s = open(p).read().replace('return "-".join', 'return "_".join')
open(p, "w").write(s)
