p = "a23lib/cli.py"; s = open(p).read()
s = s.replace('''    for name in argv:''', '''    print("debug: argv=%r" % (argv,))
    for name in argv:''')
open(p, "w").write(s)
