import os
os.makedirs(os.path.dirname('a23lib/paths.py') or '.', exist_ok=True)
open('a23lib/paths.py', 'w').write('"""Path helpers."""\nimport os\n\n\ndef is_inside(path, base):\n    """True when `path` is `base` or lies below it (no prefix confusion: /tmpx is not inside /tmp)."""\n    path, base = os.path.normpath(path), os.path.normpath(base)\n    return path == base or path.startswith(base.rstrip(os.sep) + os.sep)\n')
os.makedirs(os.path.dirname('tests/test_paths.py') or '.', exist_ok=True)
open('tests/test_paths.py', 'w').write('import os\nimport tempfile\n\nimport pytest\n\nfrom a23lib.paths import is_inside\n\n\n@pytest.mark.parametrize("base", [tempfile.gettempdir(), "/usr"])\ndef test_inside(base):\n    assert is_inside(os.path.join(base, "x", "y"), base)\n    assert not is_inside(base + "x", base)\n')
