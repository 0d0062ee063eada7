p = "a23lib/money2.py"
s = open(p).read()
s = s.replace('''    frac = (frac + "00")[:2]
    return Money(int(whole) * 100 + int(frac), currency)''', '''    if not frac:
        return Money(int(whole) * 100, currency)
    return Money(int(whole) * 100 + int(frac), currency)''')
open(p, "w").write(s)
