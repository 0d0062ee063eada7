p = "a23lib/textio.py"; s = open(p).read()
s = s.replace('''    if sys.flags.utf8_mode:
        return "utf-8"
    return locale.getpreferredencoding(False)''', '''    return "ascii"''')
open(p, "w").write(s)
