p = "a23lib/invoice.py"
s = open(p).read()
s = s.replace("            return Money(self.cents + other)\n", "            return Money(self.cents + other * 100)\n")
open(p, "w").write(s)
