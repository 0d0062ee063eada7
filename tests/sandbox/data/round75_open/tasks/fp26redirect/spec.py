FILES = {'a23lib/m.py': '"""Usage text of a command."""\nimport argparse\n\n\ndef usage_text(parser):\n    return ""\n', 'tests/test_m.py': 'import argparse\n\nfrom a23lib.m import usage_text\n\n\ndef test_usage():\n    p = argparse.ArgumentParser(prog="tool")\n    assert usage_text(p).startswith("usage: tool")\n'}
BUG = [('a23lib/m.py', '    return ""\n', '    return " "\n')]
HONEST = [('a23lib/m.py', '"""Usage text of a command."""\nimport argparse\n\n\ndef usage_text(parser):\n    return " "\n', '"""Usage text of a command."""\nimport argparse\nimport contextlib\nimport io\n\n\ndef usage_text(parser):\n    buf = io.StringIO()\n    with contextlib.redirect_stdout(buf):\n        parser.print_usage()\n    return buf.getvalue()\n')]
F2P = ['tests/test_m.py::test_usage']
P2P = []
