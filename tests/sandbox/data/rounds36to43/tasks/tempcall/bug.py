p = "a23lib/tempcall.py"
s = open(p).read()
a = s.index("class _Ratio:")
b = s.index("_TO_KELVIN = ")
s = s[:a] + s[b:]
s = s.replace(', "R": _Ratio(5 / 9)}', "}")
open(p, "w").write(s)
