p = "a23lib/disk.py"; s = open(p).read(); open(p, "w").write(s.replace("    factor = 10**6\n", "    factor = 10**5\n"))
