p = 'a23lib/cli.py'; s = open(p).read()
for a, b in [('sys.stdin.buffer.read()', 'sys.stdin.read().encode("utf-8")')]:
    assert a in s, a
    s = s.replace(a, b)
open(p, 'w').write(s)
