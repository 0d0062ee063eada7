p = "a23lib/units.py"
s = open(p).read().replace('self.factors = {"": 1, "k": 1000, "M": 1000 ** 2, "G": 1000 ** 3}', 'self.factors = {"": 1, "k": 1024, "M": 1024 ** 2, "G": 1024 ** 3}')
open(p, "w").write(s)
