import os
os.makedirs(os.path.dirname('a23lib/units.py') or '.', exist_ok=True)
open('a23lib/units.py', 'w').write('"""Length units, from the package\'s table."""\nimport json\nimport os\n\n_HERE = os.path.dirname(os.path.abspath(__file__))\n\n\ndef _table():\n    with open(os.path.join(_HERE, "units.json"), encoding="utf-8") as f:\n        return json.load(f)\n\n\ndef convert(value, src, dst):\n    t = _table()\n    return value * t[src] / t[dst]\n')
os.makedirs(os.path.dirname('a23lib/units.json') or '.', exist_ok=True)
open('a23lib/units.json', 'w').write('{"m": 1, "cm": 0.01, "km": 1000, "mm": 0.001}\n')
os.makedirs(os.path.dirname('tests/test_units.py') or '.', exist_ok=True)
open('tests/test_units.py', 'w').write('import pytest\n\nfrom a23lib.units import convert\n\n\n@pytest.fixture\ndef km():\n    return "km"\n\n\ndef test_km_to_m(km):\n    assert convert(2, km, "m") == 2000\n\n\ndef test_m_to_km(km):\n    assert convert(500, "m", km) == 0.5\n\n\ndef test_cm_to_m():\n    assert convert(250, "cm", "m") == 2.5\n')
