p = "a23lib/tally.py"
s = open(p).read()
s = s.replace("Counter(text.lower().split())", "Counter(text.split())")
open(p, "w").write(s)
