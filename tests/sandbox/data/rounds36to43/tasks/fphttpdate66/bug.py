p = 'a23lib/retry.py'; s = open(p).read()
for a, b in [('    when = parsedate_to_datetime(value)\n    return max(0, int((when - now).total_seconds()))', '    return 0'), ('from email.utils import parsedate_to_datetime\n', '')]:
    assert a in s, a
    s = s.replace(a, b)
open(p, 'w').write(s)
