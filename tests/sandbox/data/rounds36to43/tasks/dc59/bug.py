s = open('a23lib/track.py').read()
assert '\n    def __getattr__(self, name):\n        return getattr(self.inner, name)\n' in s
open('a23lib/track.py', 'w').write(s.replace('\n    def __getattr__(self, name):\n        return getattr(self.inner, name)\n', ''))
