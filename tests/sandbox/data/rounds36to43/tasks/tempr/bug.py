p = "a23lib/tempr.py"
s = open(p).read()
s = s.replace('''def _from_rankine(t):
    return t * 5 / 9


''', '').replace(', "R": _from_rankine}', '}')
open(p, "w").write(s)
