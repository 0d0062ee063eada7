import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Messages."""\n\n\ndef greeting(name):\n    return "Hello " + name\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import greeting\n\n\ndef test_greeting():\n    assert greeting("Ann") == "Hello, Ann!"\n')
