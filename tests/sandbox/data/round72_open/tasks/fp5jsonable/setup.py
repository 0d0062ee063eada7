import json, os
F = json.loads('{"a23lib/jsonable.py": "\\"\\"\\"JSON-friendly values.\\"\\"\\"\\nimport sys\\n\\n\\ndef to_builtin(x):\\n    \\"\\"\\"Sets become sorted lists; numpy scalars (where numpy is in use) become Python numbers.\\"\\"\\"\\n    np = sys.modules.get(\\"numpy\\")  # never import numpy just to check\\n    if np is not None and isinstance(x, np.generic):\\n        return x.item()\\n    if isinstance(x, (set, frozenset)):\\n        return sorted(x)\\n    return x\\n", "tests/test_jsonable.py": "import pytest\\n\\nfrom a23lib.jsonable import to_builtin\\n\\n\\n@pytest.mark.parametrize(\\"x,want\\", [({3, 1}, [1, 3]), (frozenset(\\"ba\\"), [\\"a\\", \\"b\\"]), (5, 5)])\\ndef test_to_builtin(x, want):\\n    assert to_builtin(x) == want\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
