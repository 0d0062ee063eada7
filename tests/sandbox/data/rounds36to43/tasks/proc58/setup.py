open("a23lib/runner.py", "w").write('''"""Run a helper program for a while, then stop it."""
import signal
import subprocess


def run_and_stop(cmd, wait=1.0):
    """Start `cmd`, let it run `wait` seconds, then interrupt it (SIGINT, as Ctrl-C would) so that it can
    clean up; return its exit status."""
    proc = subprocess.Popen(cmd)
    try:
        return proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
    return proc.wait()
''')
open("tests/test_runner.py", "w").write('''import sys

from a23lib.runner import run_and_stop

PROG = ("import signal, time\\nsignal.signal(signal.SIGINT, signal.default_int_handler)\\ntry:\\n    time.sleep(30)\\n"
        "except KeyboardInterrupt:\\n    raise SystemExit(7)\\n")


def test_interrupt_lets_it_clean_up():
    assert run_and_stop([sys.executable, "-c", PROG], wait=5) == 7


def test_quick_exit():
    assert run_and_stop([sys.executable, "-c", "raise SystemExit(3)"], wait=5) == 3
''')
