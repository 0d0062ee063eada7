open("a23lib/signals.py", "w").write('''"""Signals with isolated receivers."""
import logging

log = logging.getLogger(__name__)


class Signal:
    def __init__(self):
        self.receivers = []

    def connect(self, fn):
        self.receivers.append(fn)
        return fn

    def send(self, *args):
        """Call every receiver; one that raises is logged (with its traceback) and the rest still run."""
        results = []
        for fn in self.receivers:
            try:
                results.append(fn(*args))
            except Exception:
                log.exception("receiver %s failed", getattr(fn, "__name__", fn))
        return results
''')
open("tests/test_signals.py", "w").write('''import logging

from a23lib.signals import Signal


def test_failing_receiver_does_not_stop_others(caplog):
    sig = Signal()

    @sig.connect
    def broken(x):
        raise RuntimeError("nope")

    @sig.connect
    def double(x):
        return 2 * x

    with caplog.at_level(logging.ERROR):
        assert sig.send(4) == [8]
    assert "receiver broken failed" in caplog.text


def test_plain():
    sig = Signal()
    sig.connect(lambda x: x + 1)
    assert sig.send(1) == [2]
''')
