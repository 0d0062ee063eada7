p = "a23lib/forces.py"
s = open(p).read()
i = s.index("class Vector")
j = s.index("def net_force")
s = s[:i] + s[j:]
s = s.replace("import math\n", "")
s = s.replace("    return Vector(x, y)", "    return (x, y)").replace("as a Vector", "as a tuple")
open(p, "w").write(s)
