import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Application logging set-up."""\nimport logging\n\n\ndef setup(level="INFO"):\n    logging.getLogger("a23app").setLevel(level)\n    return logging.getLogger("a23app")\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import logging\n\nfrom a23lib.m import setup\n\n\ndef test_level():\n    assert setup("WARNING").level == logging.WARNING\n')
