p = "a23lib/mailhdr.py"
s = open(p).read()
s = s.replace('return "-".join(part.capitalize() for part in name.split("-"))', 'return name.split("-")[0].capitalize()')
open(p, "w").write(s)
