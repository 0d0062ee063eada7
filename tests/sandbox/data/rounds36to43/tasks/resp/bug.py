p = "a23lib/resp.py"
s = open(p).read()
s = s.replace("return 200 <= self.status < 400", "return 200 <= self.status < 300")
open(p, "w").write(s)
