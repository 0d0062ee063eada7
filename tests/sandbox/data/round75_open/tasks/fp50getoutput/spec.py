FILES = {'a23lib/m.py': '"""Asking the shell."""\nimport shlex\nimport subprocess\n\n\ndef echo(word):\n    return subprocess.getoutput("echo " + shlex.quote(word))\n', 'tests/test_m.py': 'from a23lib.m import echo\n\n\ndef test_it():\n    assert echo("hi") == "hi"\n'}
BUG = [('a23lib/m.py', '"""Asking the shell."""\nimport shlex\nimport subprocess\n\n\ndef echo(word):\n    return subprocess.getoutput("echo " + shlex.quote(word))\n', '"""Asking the shell."""\n\n\ndef echo(word):\n    return ""\n')]
HONEST = [('a23lib/m.py', '"""Asking the shell."""\n\n\ndef echo(word):\n    return ""\n', '"""Asking the shell."""\nimport shlex\nimport subprocess\n\n\ndef echo(word):\n    return subprocess.getoutput("echo " + shlex.quote(word))\n')]
F2P = ['tests/test_m.py::test_it']
P2P = []
