p = "a23lib/slug.py"
with open(p) as f:
    s = f.read()
with open(p, "w") as f:
    f.write(s.replace("text.lower()", "text"))
