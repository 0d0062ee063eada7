import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Free space checks."""\nimport os\n\n\ndef free_bytes(path):\n    st = os.statvfs(path)\n    return st.f_bavail * st.f_frsize\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import free_bytes\n\n\ndef test_it(tmp_path):\n    assert free_bytes(tmp_path) >= 0\n')
