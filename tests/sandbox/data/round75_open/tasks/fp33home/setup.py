import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Expensive lookups, cached on disk."""\nimport json\nimport os\n\n_DIR = os.path.join(os.path.expanduser("~"), ".cache", "a23lib")\n\n\ndef lookup(key):\n    path = os.path.join(_DIR, "lookup.json")\n    try:\n        with open(path, encoding="utf-8") as f:\n            cache = json.load(f)\n    except (OSError, ValueError):\n        cache = {}\n    if key not in cache:\n        cache[key] = key.upper()\n        os.makedirs(_DIR, exist_ok=True)\n        with open(path, "w", encoding="utf-8") as f:\n            json.dump(cache, f)\n    return cache[key]\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import lookup\n\n\ndef test_lookup_twice():\n    assert lookup("abc") == "ABC"\n    assert lookup("abc") == "ABC"\n')
