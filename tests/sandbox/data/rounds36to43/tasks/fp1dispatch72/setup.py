import json, os
F = json.loads('{"a23lib/errors.py": "\\"\\"\\"Mapping exceptions raised by handlers to HTTP statuses.\\"\\"\\"\\nimport functools\\n\\n\\n@functools.singledispatch\\ndef status_for(exc):\\n    \\"\\"\\"The HTTP status for an exception a handler raised.\\"\\"\\"\\n    return 500\\n\\n\\n@status_for.register(KeyError)\\ndef _(exc):\\n    return 404\\n\\n\\n@status_for.register(PermissionError)\\ndef _(exc):\\n    return 403\\n\\n\\n@status_for.register(ValueError)\\ndef _(exc):\\n    return 400\\n", "tests/test_errors.py": "import pytest\\n\\nfrom a23lib.errors import status_for\\n\\n\\n@pytest.mark.parametrize(\\"exc,status\\", [\\n    (KeyError(\\"x\\"), 404),\\n    (PermissionError(\\"no\\"), 403),\\n    (ValueError(\\"bad\\"), 400),\\n    (RuntimeError(\\"boom\\"), 500),\\n])\\ndef test_status_for(exc, status):\\n    assert status_for(exc) == status\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
