p = "a23lib/units.py"
s = open(p).read()
s = s.replace('os.path.join(os.path.dirname(__file__), "units.json")', '"a23lib/units.json"')
open(p, "w").write(s)
