p = "a23lib/geom.py"
s = open(p).read()
s = s.replace("Point(seg.end.x * k, seg.end.y * k)", "Point(seg.end.x * k, seg.end.y)")
open(p, "w").write(s)
