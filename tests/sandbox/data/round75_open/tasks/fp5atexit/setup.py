import os
os.makedirs(os.path.dirname('a23lib/recorder.py') or '.', exist_ok=True)
open('a23lib/recorder.py', 'w').write('"""A buffered event recorder."""\n\n\nclass Recorder:\n    def __init__(self, path):\n        self.path = path\n        self.buf = []\n\n    def record(self, event):\n        self.buf.append(event)\n        if len(self.buf) >= 100:\n            self.flush()\n\n    def flush(self):\n        with open(self.path, "a", encoding="utf-8") as f:\n            f.writelines(e + "\\n" for e in self.buf)\n        self.buf.clear()\n\n    def close(self):\n        self.flush()\n')
os.makedirs(os.path.dirname('tests/test_recorder.py') or '.', exist_ok=True)
open('tests/test_recorder.py', 'w').write('from a23lib.recorder import Recorder\n\n\ndef test_close_writes_pending(tmp_path):\n    r = Recorder(tmp_path / "ev.log")\n    r.record("start")\n    r.record("stop")\n    r.close()\n    assert (tmp_path / "ev.log").read_text() == "start\\nstop\\n"\n')
