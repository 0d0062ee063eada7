p = "a23lib/batch.py"
s = open(p).read()
s = s.replace("        return list(pool.map(fn, items))", "        futures = [pool.submit(fn, item) for item in items]\n        return [f.result() for f in as_completed(futures)]")
s = s.replace("import ThreadPoolExecutor", "import ThreadPoolExecutor, as_completed")
open(p, "w").write(s)
