p = "a23lib/runner.py"; s = open(p).read()
s = s.replace("import signal\n", "").replace("proc.send_signal(signal.SIGINT)", "proc.kill()")
open(p, "w").write(s)
