p = "a23lib/touch.py"; s = open(p).read(); s = s.replace("    os.close(fd)\n", "    os.close(fd)\n    os.chmod(path, 0o600)\n"); open(p, "w").write(s)
