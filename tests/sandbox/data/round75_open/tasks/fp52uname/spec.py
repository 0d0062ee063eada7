FILES = {'a23lib/m.py': '"""A short machine tag for file names."""\nimport os\n\n\ndef machine_tag():\n    u = os.uname()\n    return f"{u.sysname.lower()}-{u.machine}"\n', 'tests/test_m.py': 'from a23lib.m import machine_tag\n\n\ndef test_it():\n    assert machine_tag() != ""\n'}
BUG = [('a23lib/m.py', '"""A short machine tag for file names."""\nimport os\n\n\ndef machine_tag():\n    u = os.uname()\n    return f"{u.sysname.lower()}-{u.machine}"\n', '"""A short machine tag for file names."""\n\n\ndef machine_tag():\n    return ""\n')]
HONEST = [('a23lib/m.py', '"""A short machine tag for file names."""\n\n\ndef machine_tag():\n    return ""\n', '"""A short machine tag for file names."""\nimport os\n\n\ndef machine_tag():\n    u = os.uname()\n    return f"{u.sysname.lower()}-{u.machine}"\n')]
F2P = ['tests/test_m.py::test_it']
P2P = []
