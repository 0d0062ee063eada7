p = "a23lib/hdrs.py"
s = open(p).read()
s = s.replace("        return types.MappingProxyType(self._headers)\n", "        return self._headers\n")
open(p, "w").write(s)
