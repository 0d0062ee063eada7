p = "a23lib/vec.py"; s = open(p).read(); s = s.replace("self.y + other.y)", "self.y + other.x)"); open(p, "w").write(s)
