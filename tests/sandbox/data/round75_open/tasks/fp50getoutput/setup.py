import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Asking the shell."""\nimport shlex\nimport subprocess\n\n\ndef echo(word):\n    return subprocess.getoutput("echo " + shlex.quote(word))\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import echo\n\n\ndef test_it():\n    assert echo("hi") == "hi"\n')
