p = "a23lib/fx.py"; s = open(p).read(); t = s.replace("return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))", "return int(value)"); assert t != s; open(p, "w").write(t)
