p = "a23lib/books.py"; s = open(p).read(); s = s.replace("w.lower() if i and w.lower() in _SMALL else w.capitalize()", "w.lower() if w.lower() in _SMALL else w.capitalize()"); open(p, "w").write(s)
