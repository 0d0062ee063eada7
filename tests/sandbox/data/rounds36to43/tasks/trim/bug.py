p = "a23lib/text.py"; s = open(p).read(); s = s.replace('" ".join(text.split())', '" ".join(text.split(" "))'); open(p, "w").write(s)
