p = "a23lib/price.py"; s = open(p).read(); s = s.replace('''from decimal import Decimal
''', '''from decimal import Context, Decimal

_CTX = Context(prec=9)
''').replace("return Decimal(total) / Decimal(quantity)", "return _CTX.divide(Decimal(total), Decimal(quantity))"); open(p, "w").write(s)
