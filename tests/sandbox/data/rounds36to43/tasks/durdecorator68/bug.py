s = open('a23lib/timefmt.py').read(); assert 'return f"{h}h {m:02d}m {s:02d}s"' in s; open('a23lib/timefmt.py', 'w').write(s.replace('return f"{h}h {m:02d}m {s:02d}s"', 'return f"{h}h {m}m {s}s"'))
s = open('a23lib/timefmt.py').read(); assert 'return f"{m}m {s:02d}s"' in s; open('a23lib/timefmt.py', 'w').write(s.replace('return f"{m}m {s:02d}s"', 'return f"{m}m {s}s"'))
