p = "a23lib/roman.py"; s = open(p).read(); s = s.replace('(900, "CM"), ', '').replace('(90, "XC"),\n          ', '').replace('(9, "IX"), ', ''); open(p, "w").write(s)
