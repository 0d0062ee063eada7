import os
os.makedirs(os.path.dirname('a23lib/defaults.json') or '.', exist_ok=True)
open('a23lib/defaults.json', 'w').write('{"retries": 3}\n')
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Default settings."""\nimport json\nimport pkgutil\n\n\ndef defaults():\n    return json.loads(pkgutil.get_data("a23lib", "defaults.json"))\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import defaults\n\n\ndef test_defaults():\n    assert defaults() == {"retries": 3}\n')
