import json, os
F = json.loads('{"a23lib/conf.py": "\\"\\"\\"Reading configuration files.\\"\\"\\"\\nimport json\\n\\n\\ndef read_config(path):\\n    \\"\\"\\"The JSON object in path; the file is closed before returning.\\"\\"\\"\\n    with open(path) as f:\\n        return json.load(f)\\n", "tests/test_conf.py": "import gc\\n\\nfrom a23lib.conf import read_config\\n\\n\\ndef test_read(tmp_path):\\n    p = tmp_path / \\"c.json\\"\\n    p.write_text(\'{\\"a\\": 1}\')\\n    assert read_config(p) == {\\"a\\": 1}\\n\\n\\ndef test_file_is_closed(tmp_path, recwarn):\\n    p = tmp_path / \\"c.json\\"\\n    p.write_text(\'{\\"a\\": 1}\')\\n    read_config(p)\\n    gc.collect()\\n    assert [w for w in recwarn if issubclass(w.category, ResourceWarning)] == []\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
