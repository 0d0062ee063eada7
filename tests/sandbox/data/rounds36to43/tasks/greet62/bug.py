p = "a23lib/greet.py"
with open(p) as f:
    s = f.read()
with open(p, "w") as f:
    f.write(s.replace("name.title()", "name.capitalize()"))
