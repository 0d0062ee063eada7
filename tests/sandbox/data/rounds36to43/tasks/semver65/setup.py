import os
os.makedirs(os.path.dirname('a23lib/version.py') or '.', exist_ok=True)
open('a23lib/version.py', 'w').write('"""Version comparison."""\n\n\ndef _key(v):\n    return tuple(int(p) for p in v.split("."))\n\n\ndef compare(a, b):\n    """-1, 0 or 1 as version a is older than, equal to or newer than b."""\n    ka, kb = _key(a), _key(b)\n    return (ka > kb) - (ka < kb)\n')
os.makedirs(os.path.dirname('tests/helpers.py') or '.', exist_ok=True)
open('tests/helpers.py', 'w').write('import json\nimport pathlib\n\nDATA = pathlib.Path(__file__).parent / "data"\n\n\ndef load_cases(name):\n    with open(DATA / name, encoding="utf-8") as fh:\n        return [tuple(row) for row in json.load(fh)]\n')
os.makedirs(os.path.dirname('tests/data/compare.json') or '.', exist_ok=True)
open('tests/data/compare.json', 'w').write('[["1.0.0", "1.0.0", 0], ["1.10.0", "1.9.0", 1], ["2.0.0", "10.0.0", -1], ["1.2.3", "1.2.4", -1], ["0.9.1", "0.9.0", 1]]\n')
os.makedirs(os.path.dirname('tests/test_version.py') or '.', exist_ok=True)
open('tests/test_version.py', 'w').write('import pytest\n\nfrom a23lib.version import compare\nfrom tests.helpers import load_cases\n\n\n@pytest.mark.parametrize("a,b,want", load_cases("compare.json"))\ndef test_compare(a, b, want):\n    assert compare(a, b) == want\n')
