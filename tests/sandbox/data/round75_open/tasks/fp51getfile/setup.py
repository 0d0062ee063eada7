import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Where a class is defined."""\nimport inspect\nimport os\n\n\ndef source_dir(cls):\n    return os.path.dirname(os.path.abspath(inspect.getfile(cls)))\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import os\n\nfrom a23lib.m import source_dir\n\n\nclass Local:\n    pass\n\n\ndef test_it():\n    assert source_dir(Local) == os.path.dirname(os.path.abspath(__file__))\n')
