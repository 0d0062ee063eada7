FILES = {'a23lib/m.py': '"""How many files to open at once."""\nimport resource\n\n\ndef batch_size():\n    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)\n    return max(1, min(256, soft // 4))\n', 'tests/test_m.py': 'from a23lib.m import batch_size\n\n\ndef test_positive():\n    assert 1 <= batch_size() <= 256\n'}
BUG = [('a23lib/m.py', '"""How many files to open at once."""\nimport resource\n\n\ndef batch_size():\n    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)\n    return max(1, min(256, soft // 4))\n', '"""How many files to open at once."""\n\n\ndef batch_size():\n    return 0\n')]
HONEST = [('a23lib/m.py', '"""How many files to open at once."""\n\n\ndef batch_size():\n    return 0\n', '"""How many files to open at once."""\nimport resource\n\n\ndef batch_size():\n    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)\n    return max(1, min(256, soft // 4))\n')]
F2P = ['tests/test_m.py::test_positive']
P2P = []
