p = "a23lib/files.py"; s = open(p).read(); s = s.replace("        if os.path.isfile(path):", "        if os.path.isfile(path) and not name.startswith(\".\"):"); open(p, "w").write(s)
