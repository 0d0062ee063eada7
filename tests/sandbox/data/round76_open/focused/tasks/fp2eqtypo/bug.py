s = open('a23lib/spans.py').read(); assert 'self.end == other.end' in s, 'a23lib/spans.py'; open('a23lib/spans.py', 'w').write(s.replace('self.end == other.end', 'self.end == other.start', 1))
