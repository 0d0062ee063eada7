p = "a23lib/ver.py"
s = open(p).read()
s = s.replace('''

    def __repr__(self):
        return f"Version({str.__repr__(self)})"
''', "\n")
open(p, "w").write(s)
