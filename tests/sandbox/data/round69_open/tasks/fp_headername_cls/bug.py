p = "a23lib/names.py"; s = open(p).read()
s = s.replace("            return self.text.lower() == other.lower()", "            return self.text == other")
s = s.replace("        return hash(self.text.lower())", "        return hash(self.text)")
open(p, "w").write(s)
