p = "a23lib/tempr3.py"
s = open(p).read()
s = s.replace('''class Rankine(Scale):
    def to_kelvin(self, t):
        return t * 5 / 9


''', '').replace(', "R": Rankine()}', '}')
open(p, "w").write(s)
