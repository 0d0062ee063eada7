p = "a23lib/grid.py"; s = open(p).read(); assert "lead = first.weekday()" in s; s = s.replace("lead = first.weekday()", "lead = (first.weekday() + 1) % 7"); open(p, "w").write(s)
