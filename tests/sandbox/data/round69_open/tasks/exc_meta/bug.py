p = "a23lib/duration.py"; s = open(p).read(); s = s.replace('raise ParseError(f"bad duration: {text!r}")', 'raise ValueError(f"bad duration: {text!r}")'); open(p, "w").write(s)
