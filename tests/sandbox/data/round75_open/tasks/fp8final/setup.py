import os
os.makedirs(os.path.dirname('a23lib/ws.py') or '.', exist_ok=True)
open('a23lib/ws.py', 'w').write('"""Scratch workspaces."""\nimport os\nimport shutil\nimport tempfile\n\n\nclass Workspace:\n    def __init__(self):\n        self.path = tempfile.mkdtemp(prefix="ws-")\n\n    def cleanup(self):\n        pass\n')
os.makedirs(os.path.dirname('tests/test_ws.py') or '.', exist_ok=True)
open('tests/test_ws.py', 'w').write('import os\n\nfrom a23lib.ws import Workspace\n\n\ndef test_cleanup_removes():\n    ws = Workspace()\n    open(os.path.join(ws.path, "f"), "w").close()\n    ws.cleanup()\n    assert not os.path.exists(ws.path)\n')
