p = "a23lib/seq.py"; s = open(p).read(); s = s.replace("    return out\n", "    return sorted(out)\n"); open(p, "w").write(s)
