import os
os.makedirs(os.path.dirname('a23lib/canon.py') or '.', exist_ok=True)
open('a23lib/canon.py', 'w').write('"""Canonical JSON text."""\nimport json\n\ntry:\n    import simplejson as _fast\nexcept ImportError:  # optional accelerator\n    _fast = None\n\n\ndef canonical(obj):\n    """Compact JSON with sorted keys."""\n    if _fast is not None:\n        return _fast.dumps(obj, sort_keys=True, separators=(",", ":"))\n    return json.dumps(obj, sort_keys=True, separators=(",", ":"))\n')
os.makedirs(os.path.dirname('tests/test_canon.py') or '.', exist_ok=True)
open('tests/test_canon.py', 'w').write('from a23lib.canon import canonical\n\n\ndef test_sorted_compact():\n    assert canonical({"b": 1, "a": [1, 2]}) == \'{"a":[1,2],"b":1}\'\n\n\ndef test_nested():\n    assert canonical({"z": {"y": None, "x": True}}) == \'{"z":{"x":true,"y":null}}\'\n\n\ndef test_scalar():\n    assert canonical(3) == "3"\n')
