p = "bin/a23count"
s = open(p).read()
s = s.replace('return len(words(" ".join(argv)))', 'return len(words(" ".join(argv))) or 1')
open(p, "w").write(s)
