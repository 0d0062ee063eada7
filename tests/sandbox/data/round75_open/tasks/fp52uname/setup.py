import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""A short machine tag for file names."""\nimport os\n\n\ndef machine_tag():\n    u = os.uname()\n    return f"{u.sysname.lower()}-{u.machine}"\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import machine_tag\n\n\ndef test_it():\n    assert machine_tag() != ""\n')
