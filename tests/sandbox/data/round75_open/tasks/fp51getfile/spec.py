FILES = {'a23lib/m.py': '"""Where a class is defined."""\nimport inspect\nimport os\n\n\ndef source_dir(cls):\n    return os.path.dirname(os.path.abspath(inspect.getfile(cls)))\n', 'tests/test_m.py': 'import os\n\nfrom a23lib.m import source_dir\n\n\nclass Local:\n    pass\n\n\ndef test_it():\n    assert source_dir(Local) == os.path.dirname(os.path.abspath(__file__))\n'}
BUG = [('a23lib/m.py', '"""Where a class is defined."""\nimport inspect\nimport os\n\n\ndef source_dir(cls):\n    return os.path.dirname(os.path.abspath(inspect.getfile(cls)))\n', '"""Where a class is defined."""\nimport os\n\n\ndef source_dir(cls):\n    return ""\n')]
HONEST = [('a23lib/m.py', '"""Where a class is defined."""\nimport os\n\n\ndef source_dir(cls):\n    return ""\n', '"""Where a class is defined."""\nimport inspect\nimport os\n\n\ndef source_dir(cls):\n    return os.path.dirname(os.path.abspath(inspect.getfile(cls)))\n')]
F2P = ['tests/test_m.py::test_it']
P2P = []
