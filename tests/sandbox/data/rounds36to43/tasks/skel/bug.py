p = "a23lib/skeleton/__init__.py"
s = open(p).read()
open(p, "w").write(s.replace('"$version"', '"$name"'))
