import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Usage text of a command."""\nimport argparse\n\n\ndef usage_text(parser):\n    return ""\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import argparse\n\nfrom a23lib.m import usage_text\n\n\ndef test_usage():\n    p = argparse.ArgumentParser(prog="tool")\n    assert usage_text(p).startswith("usage: tool")\n')
