import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""The installed version."""\n\n\ndef version():\n    return "0"\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import version\n\n\ndef test_version_string():\n    assert version() == "unknown"\n')
