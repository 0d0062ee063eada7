import os
os.makedirs(os.path.dirname('a23lib/app.py') or '.', exist_ok=True)
open('a23lib/app.py', 'w').write('"""Command-line entry point: short error messages for users instead of tracebacks."""\nimport sys\n\n\ndef _hook(exc_type, exc, tb):\n    sys.stderr.write(f"error: {exc}\\n")\n\n\ndef main(argv):\n    sys.excepthook = _hook\n    return len(argv)\n')
os.makedirs(os.path.dirname('tests/test_fp32excepthook.py') or '.', exist_ok=True)
open('tests/test_fp32excepthook.py', 'w').write('import sys\n\nfrom a23lib import app\n\n\ndef test_hook_installed():\n    old = sys.excepthook\n    try:\n        assert app.main(["a"]) == 1\n        assert sys.excepthook is app._hook\n    finally:\n        sys.excepthook = old\n')
