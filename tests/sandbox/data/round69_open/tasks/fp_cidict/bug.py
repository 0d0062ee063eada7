p = "a23lib/headers.py"; s = open(p).read()
s = s.replace('''    def __getitem__(self, key):
        return super().__getitem__(key.lower())

    def __contains__(self, key):
        return isinstance(key, str) and super().__contains__(key.lower())

    def get(self, key, default=None):
        return super().get(key.lower(), default)
''', '')
open(p, "w").write(s)
