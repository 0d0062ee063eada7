import json, os
F = json.loads('{"a23lib/export.py": "\\"\\"\\"Exporting a site tree.\\"\\"\\"\\nimport shutil\\n\\n\\ndef export_site(src, dst):\\n    \\"\\"\\"Copy a site tree to dst, leaving out bytecode caches and editor backups.\\"\\"\\"\\n    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(\\"__pycache__\\", \\"*.pyc\\", \\"*~\\"))\\n    return dst\\n", "tests/test_export.py": "from a23lib.export import export_site\\n\\n\\ndef test_export_skips_caches(tmp_path):\\n    src = tmp_path / \\"site\\"\\n    (src / \\"__pycache__\\").mkdir(parents=True)\\n    (src / \\"index.html\\").write_text(\\"<h1>hi</h1>\\")\\n    (src / \\"index.html~\\").write_text(\\"old\\")\\n    (src / \\"__pycache__\\" / \\"x.pyc\\").write_bytes(b\\"\\\\0\\")\\n    dst = export_site(src, tmp_path / \\"out\\")\\n    assert sorted(p.name for p in dst.rglob(\\"*\\")) == [\\"index.html\\"]\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
