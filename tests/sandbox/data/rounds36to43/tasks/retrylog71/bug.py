p = "a23lib/retry.py"; s = open(p).read()
s = s.replace('''        try:
            return fn()''', '''        try:
            result = fn()
            log.warning("attempt %d succeeded", i)
            return result''')
open(p, "w").write(s)
