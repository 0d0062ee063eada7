p = "a23lib/registry.py"
s = open(p).read()
s = s.replace('''    def _key(self, name):
        return name.strip().lower()

''', "")
s = s.replace("self._codecs[self._key(name)]", "self._codecs[name]")
open(p, "w").write(s)
