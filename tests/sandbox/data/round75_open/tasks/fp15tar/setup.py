import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Listing archives."""\n\n\ndef members(path):\n    """Names of the regular files in a .tar.gz archive, sorted."""\n    return sorted([])\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import io\nimport tarfile\n\nfrom a23lib.m import members\n\n\ndef test_members(tmp_path):\n    p = tmp_path / "a.tar.gz"\n    with tarfile.open(p, "w:gz") as t:\n        for name in ("b.txt", "a.txt"):\n            info = tarfile.TarInfo(name)\n            info.size = 1\n            t.addfile(info, io.BytesIO(b"x"))\n    assert members(p) == ["a.txt", "b.txt"]\n')
