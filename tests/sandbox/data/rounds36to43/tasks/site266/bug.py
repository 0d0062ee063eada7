p = "a23lib/site.py"; s = open(p).read()
a = '    text = re.sub(r"\\*\\*(.+?)\\*\\*", r"<strong>\\1</strong>", text)\n'
b = '    text = re.sub(r"\\*(.+?)\\*", r"<em>\\1</em>", text)\n'
assert a in s and b in s; s = s.replace(a + b, b + a); open(p, "w").write(s)
