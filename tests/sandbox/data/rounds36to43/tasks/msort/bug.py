p = "a23lib/msort.py"; s = open(p).read(); s = s.replace("return out + left + right", "return out + left"); open(p, "w").write(s)
