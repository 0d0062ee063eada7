p = "a23lib/workers.py"
s = open(p).read()
s = s.replace("cores[i % len(cores)] for i in range(n_workers)", "cores[i % (len(cores) - 1 or 1)] for i in range(n_workers)")
open(p, "w").write(s)
