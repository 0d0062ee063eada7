p = "a23lib/money.py"
s = open(p).read()
s = s.replace("result = result + price * qty", "result = result + price")
open(p, "w").write(s)
