p = "a23lib/shapes.py"
s = open(p).read()
s = s.replace('return {"circle": Circle, "square": Square}[kind](size)', 'return {"circle": Square, "square": Square}[kind](size)')
open(p, "w").write(s)
