p = "a23lib/price2.py"
s = open(p).read()
s = s.replace("return int(dollars) * 100 + int(cents)", "return int(dollars) * 100 + int(cents.lstrip(\"0\") or 0) * 10 ** (len(cents) - len(cents.lstrip(\"0\")))")
open(p, "w").write(s)
