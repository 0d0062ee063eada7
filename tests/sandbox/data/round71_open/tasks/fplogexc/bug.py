p = "a23lib/signals.py"; s = open(p).read()
s = s.replace('''            try:
                results.append(fn(*args))
            except Exception:
                log.exception("receiver %s failed", getattr(fn, "__name__", fn))''', '''            results.append(fn(*args))''')
open(p, "w").write(s)
