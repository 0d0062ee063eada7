p = "a23lib/names.py"; s = open(p).read()
s = s.replace('''    def __eq__(self, other):
        if isinstance(other, str):
            return self.lower() == other.lower()
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash(self.lower())
''', '')
open(p, "w").write(s)
