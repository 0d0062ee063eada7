import json, os
F = json.loads('{"a23lib/ids.py": "\\"\\"\\"Identifiers.\\"\\"\\"\\nimport itertools\\n\\n_counter = itertools.count(1)\\n\\n\\ndef new_id(prefix=\\"id\\"):\\n    \\"\\"\\"A process-unique identifier such as \'id-1\'.\\"\\"\\"\\n    return f\\"{prefix}-{next(_counter)}\\"\\n", "tests/test_ids.py": "from a23lib.ids import new_id\\n\\n\\ndef test_unique():\\n    ids = [new_id() for _ in range(50)]\\n    assert len(set(ids)) == len(ids)\\n\\n\\ndef test_prefix():\\n    assert new_id(\\"job\\").startswith(\\"job-\\")\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
