p = "a23lib/paths.py"; s = open(p).read(); s = s.replace('os.environ.get("XDG_CACHE_HOME") or ', ''); open(p, "w").write(s)
