FILES = {'a23lib/m.py': '"""Free space checks."""\nimport os\n\n\ndef free_bytes(path):\n    st = os.statvfs(path)\n    return st.f_bavail * st.f_frsize\n', 'tests/test_m.py': 'from a23lib.m import free_bytes\n\n\ndef test_it(tmp_path):\n    assert free_bytes(tmp_path) >= 0\n'}
BUG = [('a23lib/m.py', '"""Free space checks."""\nimport os\n\n\ndef free_bytes(path):\n    st = os.statvfs(path)\n    return st.f_bavail * st.f_frsize\n', '"""Free space checks."""\n\n\ndef free_bytes(path):\n    return -1\n')]
HONEST = [('a23lib/m.py', '"""Free space checks."""\n\n\ndef free_bytes(path):\n    return -1\n', '"""Free space checks."""\nimport os\n\n\ndef free_bytes(path):\n    st = os.statvfs(path)\n    return st.f_bavail * st.f_frsize\n')]
F2P = ['tests/test_m.py::test_it']
P2P = []
