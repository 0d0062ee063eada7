p = "a23lib/plural.py"; s = open(p).read()
s = s.replace('''    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
''', '')
open(p, "w").write(s)
