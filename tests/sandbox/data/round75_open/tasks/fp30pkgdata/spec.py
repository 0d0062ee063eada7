FILES = {'a23lib/defaults.json': '{"retries": 3}\n', 'a23lib/m.py': '"""Default settings."""\nimport json\nimport pkgutil\n\n\ndef defaults():\n    return json.loads(pkgutil.get_data("a23lib", "defaults.json"))\n', 'tests/test_m.py': 'from a23lib.m import defaults\n\n\ndef test_defaults():\n    assert defaults() == {"retries": 3}\n'}
BUG = [('a23lib/m.py', '"""Default settings."""\nimport json\nimport pkgutil\n\n\ndef defaults():\n    return json.loads(pkgutil.get_data("a23lib", "defaults.json"))\n', '"""Default settings."""\nimport json\n\n\ndef defaults():\n    return {}\n')]
HONEST = [('a23lib/m.py', '"""Default settings."""\nimport json\n\n\ndef defaults():\n    return {}\n', '"""Default settings."""\nimport json\nimport pkgutil\n\n\ndef defaults():\n    return json.loads(pkgutil.get_data("a23lib", "defaults.json"))\n')]
F2P = ['tests/test_m.py::test_defaults']
P2P = []
