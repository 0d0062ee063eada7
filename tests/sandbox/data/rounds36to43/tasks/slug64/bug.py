p = "a23lib/slug.py"; s = open(p).read(); s = s.replace('    return text.strip("-")', '    return text'); open(p, "w").write(s)
