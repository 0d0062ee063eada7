p = "a23lib/notify.py"; s = open(p).read(); s = s.replace("{name.strip().title()}", "{name.strip()}"); open(p, "w").write(s)
