M = '''"""Scratch workspaces."""
import os
import shutil
import tempfile


class Workspace:
    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="ws-")

    def cleanup(self):
        pass
'''
TEST = '''import os

from a23lib.ws import Workspace


def test_cleanup_removes():
    ws = Workspace()
    open(os.path.join(ws.path, "f"), "w").close()
    ws.cleanup()
    assert not os.path.exists(ws.path)
'''
FILES = {"a23lib/ws.py": M, "tests/test_ws.py": TEST}
BUG = [("a23lib/ws.py", "    def cleanup(self):\n        pass\n", "    def cleanup(self):\n        os.listdir(self.path)\n")]
F2P = ["tests/test_ws.py::test_cleanup_removes"]
HONEST = [("a23lib/ws.py", "import tempfile\n", "import tempfile\nimport weakref\n"),
          ("a23lib/ws.py", '        self.path = tempfile.mkdtemp(prefix="ws-")\n', '        self.path = tempfile.mkdtemp(prefix="ws-")\n        self._finalizer = weakref.finalize(self, shutil.rmtree, self.path, ignore_errors=True)\n'),
          ("a23lib/ws.py", "    def cleanup(self):\n        os.listdir(self.path)\n", "    def cleanup(self):\n        self._finalizer()\n")]
