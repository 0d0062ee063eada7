p = "a23lib/units.py"
s = open(p).read()
a = s.index("class Length:"); b = s.index("def parse_length")
s = s[:a] + s[b:]
s = s.replace("import functools\nimport numbers\n", "")
s = s.replace("    return Length(float(number) * UNITS[unit])", "    return float(number) * UNITS[unit]")
s = s.replace('"3 km" -> Length(3000.0)', '"3 km" -> 3000.0')
open(p, "w").write(s)
