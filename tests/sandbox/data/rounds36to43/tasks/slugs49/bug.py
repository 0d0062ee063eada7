p = "a23lib/slugs.py"
s = open(p).read()
s = s.replace('''        n = seen.get(base, 0)
        if n:
            slug = "%s-%d" % (base, n + 1)
        seen[base] = n + 1
''', "")
open(p, "w").write(s)
