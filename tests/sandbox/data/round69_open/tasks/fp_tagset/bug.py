p = "a23lib/tags.py"; s = open(p).read()
s = s.replace('''    """A set of lower-case tags; membership ignores case."""

    def __contains__(self, tag):
        return isinstance(tag, str) and super().__contains__(tag.lower())
''', '''    """A set of lower-case tags; membership ignores case."""
''')
open(p, "w").write(s)
