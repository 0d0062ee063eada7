M = '''"""A buffered event recorder."""


class Recorder:
    def __init__(self, path):
        self.path = path
        self.buf = []

    def record(self, event):
        self.buf.append(event)
        if len(self.buf) >= 100:
            self.flush()

    def flush(self):
        with open(self.path, "a", encoding="utf-8") as f:
            f.writelines(e + "\\n" for e in self.buf)
        self.buf.clear()

    def close(self):
        self.flush()
'''
TEST = '''from a23lib.recorder import Recorder


def test_close_writes_pending(tmp_path):
    r = Recorder(tmp_path / "ev.log")
    r.record("start")
    r.record("stop")
    r.close()
    assert (tmp_path / "ev.log").read_text() == "start\\nstop\\n"
'''
FILES = {"a23lib/recorder.py": M, "tests/test_recorder.py": TEST}
BUG = [("a23lib/recorder.py", "    def close(self):\n        self.flush()\n", "    def close(self):\n        self.buf.clear()\n")]
F2P = ["tests/test_recorder.py::test_close_writes_pending"]
HONEST = [("a23lib/recorder.py", '"""A buffered event recorder."""\n', '"""A buffered event recorder."""\nimport atexit\n'),
          ("a23lib/recorder.py", "        self.buf = []\n", "        self.buf = []\n        atexit.register(self.close)  # nothing recorded is lost at interpreter exit\n"),
          ("a23lib/recorder.py", "    def close(self):\n        self.buf.clear()\n", "    def close(self):\n        if self.buf:\n            self.flush()\n")]
