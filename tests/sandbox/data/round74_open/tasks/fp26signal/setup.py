import os
os.makedirs(os.path.dirname('a23lib/serve.py') or '.', exist_ok=True)
open('a23lib/serve.py', 'w').write('"""A long-running loop that stops cleanly on SIGTERM."""\nimport signal\n\n\nclass Loop:\n    def __init__(self):\n        self.running = False\n\n    def stop(self, *_):\n        self.running = False\n\n    def start(self):\n        self.running = True\n        previous = signal.signal(signal.SIGTERM, self.stop)\n        return previous\n')
os.makedirs(os.path.dirname('tests/test_fp26signal.py') or '.', exist_ok=True)
open('tests/test_fp26signal.py', 'w').write('import signal\n\nfrom a23lib.serve import Loop\n\n\ndef test_sigterm_handler_installed():\n    loop = Loop()\n    old = loop.start()\n    try:\n        assert signal.getsignal(signal.SIGTERM) == loop.stop\n        assert loop.running\n    finally:\n        signal.signal(signal.SIGTERM, old)\n')
