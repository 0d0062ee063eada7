p = "a23lib/billing.py"; s = open(p).read(); s = s.replace("int(net_cents * (1 + rate) + 0.5)", "int(net_cents * (1 + rate))"); open(p, "w").write(s)
