FILES = {'a23lib/m.py': '"""Classifying imports."""\nimport sys\n\n\ndef is_stdlib(name):\n    return name.partition(".")[0] in sys.stdlib_module_names\n', 'tests/test_m.py': 'from a23lib.m import is_stdlib\n\n\ndef test_it():\n    assert is_stdlib("json.decoder") is True\n    assert is_stdlib("requests") is False\n'}
BUG = [('a23lib/m.py', '"""Classifying imports."""\nimport sys\n\n\ndef is_stdlib(name):\n    return name.partition(".")[0] in sys.stdlib_module_names\n', '"""Classifying imports."""\n\n\ndef is_stdlib(name):\n    return False\n')]
HONEST = [('a23lib/m.py', '"""Classifying imports."""\n\n\ndef is_stdlib(name):\n    return False\n', '"""Classifying imports."""\nimport sys\n\n\ndef is_stdlib(name):\n    return name.partition(".")[0] in sys.stdlib_module_names\n')]
F2P = ['tests/test_m.py::test_it']
P2P = []
