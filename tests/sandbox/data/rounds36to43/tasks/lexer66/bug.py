p = "a23lib/lexer.py"; s = open(p).read(); t = s.replace(r"(\*\*|[-+*/()])", r"([-+*/()])"); assert t != s; open(p, "w").write(t)
