import json, os
F = json.loads('{"a23lib/store.py": "\\"\\"\\"Saving documents.\\"\\"\\"\\nimport json\\nimport os\\n\\n\\ndef save(path, doc):\\n    \\"\\"\\"Write doc as JSON to path atomically (a temporary file beside it, then a rename).\\"\\"\\"\\n    tmp = f\\"{path}.tmp\\"\\n    with open(tmp, \\"w\\") as f:\\n        json.dump(doc, f)\\n    os.replace(tmp, path)\\n", "tests/test_store.py": "import json\\nimport os\\n\\nfrom a23lib.store import save\\n\\n\\ndef test_save(tmp_path):\\n    p = tmp_path / \\"doc.json\\"\\n    save(p, {\\"a\\": 1})\\n    assert json.loads(p.read_text()) == {\\"a\\": 1}\\n\\n\\ndef test_no_leftovers(tmp_path):\\n    p = tmp_path / \\"doc.json\\"\\n    save(p, {\\"a\\": 1})\\n    save(p, {\\"a\\": 2})\\n    assert sorted(os.listdir(tmp_path)) == [\\"doc.json\\"]\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
