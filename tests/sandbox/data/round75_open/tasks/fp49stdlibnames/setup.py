import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Classifying imports."""\nimport sys\n\n\ndef is_stdlib(name):\n    return name.partition(".")[0] in sys.stdlib_module_names\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import is_stdlib\n\n\ndef test_it():\n    assert is_stdlib("json.decoder") is True\n    assert is_stdlib("requests") is False\n')
