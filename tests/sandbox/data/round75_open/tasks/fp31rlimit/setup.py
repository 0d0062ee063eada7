import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""How many files to open at once."""\nimport resource\n\n\ndef batch_size():\n    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)\n    return max(1, min(256, soft // 4))\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import batch_size\n\n\ndef test_positive():\n    assert 1 <= batch_size() <= 256\n')
