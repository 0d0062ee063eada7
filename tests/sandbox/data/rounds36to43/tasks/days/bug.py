p = "a23lib/days.py"
s = open(p).read()
s = s.replace("year, month, day = (int(part)", "year, day, month = (int(part)")
open(p, "w").write(s)
