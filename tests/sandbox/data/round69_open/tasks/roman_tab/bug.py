p = "a23lib/roman.py"; s = open(p).read()
s = s.replace('(900, "CM"), ', '').replace('(400, "CD"), ', '').replace('(90, "XC"),\n           ', '').replace('(40, "XL"), ', '').replace('(9, "IX"), ', '').replace('(4, "IV"), ', '')
open(p, "w").write(s)
