p = "a23lib/slug.py"; s = open(p).read(); assert '[^a-z0-9]+' in s; s = s.replace('[^a-z0-9]+', '[^a-z0-9]'); open(p, "w").write(s)
