p = "a23lib/sizeci.py"
s = open(p).read()
a = s.index("class _Units(dict):")
b = s.index("_UNITS = _Units(")
s = s[:a] + s[b:]
s = s.replace('_UNITS = _Units({"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9})', '_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9}')
open(p, "w").write(s)
