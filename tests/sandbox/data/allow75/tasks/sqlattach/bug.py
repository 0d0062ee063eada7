s = open("a23lib/m.py").read()
open("a23lib/m.py", "w").write(s.replace('"B": 7', '"B": 6', 1))
