p = "a23lib/opts.py"; s = open(p).read()
s = s.replace('''        for key, value in {**self.DEFAULTS, **overrides}.items():
            setattr(self, key, value)
''', '''        self.width = self.DEFAULTS["width"]
        self.color = self.DEFAULTS["color"]
        self.indent = self.DEFAULTS["indent"]
''')
open(p, "w").write(s)
