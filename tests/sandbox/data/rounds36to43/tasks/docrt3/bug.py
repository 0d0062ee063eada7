p = "a23lib/unitsrt3.py"; s = open(p).read(); open(p, "w").write(s.replace('{"km": 1000,', '{"km": 100,'))
