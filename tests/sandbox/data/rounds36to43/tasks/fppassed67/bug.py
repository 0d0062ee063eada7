p = "a23lib/opts.py"; s = open(p).read()
s = s.replace("""

    A value passed in explicitly wins, even a falsy one (color=False, width=0); None means "use the default".
    \"\"\"""", '\"\"\"')
s = s.replace("        # a value passed in explicitly wins, even a falsy one (color=False, width=0)\n        if value is not None:", "        if value:")
open(p, "w").write(s)
