p = "a23lib/vercmp.py"
s = open(p).read()
s = s.replace('self.parts = tuple(int(p) for p in text.split("."))', 'self.parts = tuple(text.split("."))')
open(p, "w").write(s)
