p = "a23lib/linetext2.py"; s = open(p).read(); open(p, "w").write(s.replace('Line("Hello, " + name)', 'Line("Hi " + name)'))
