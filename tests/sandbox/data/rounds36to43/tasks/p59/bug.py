p = "a23lib/slug.py"
s = open(p).read()
s = s.replace('"-".join(w.lower() for w in words)', '"-".join(words)')
open(p, "w").write(s)
