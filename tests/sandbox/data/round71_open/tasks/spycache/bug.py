p = "a23lib/store.py"; s = open(p).read()
s = s.replace('''    if key not in _cache:
        _cache[key] = _load(key)
    return _cache[key]''', '''    _cache[key] = _load(key)
    return _cache[key]''')
open(p, "w").write(s)
