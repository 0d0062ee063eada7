p = "a23lib/money.py"; s = open(p).read(); s = s.replace("int(net.cents * (1 + rate) + 0.5)", "int(net.cents * (1 + rate))"); open(p, "w").write(s)
