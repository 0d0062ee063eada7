p = "a23lib/color.py"; s = open(p).read(); s = s.replace("int(s[4:6], 16)", "int(s[5:6], 16)"); open(p, "w").write(s)
