import os
FILES = {'a23lib/ext.py': 'import os\n\n\ndef ext(path):\n    return os.path.splitext(path)[1].lstrip(".").lower()\n', 'tests/test_ext.py': 'import pytest\n\nfrom a23lib.ext import ext\n\nCASES = [("a/B.TXT", "txt"), ("c.tar.GZ", "gz")]\n\n\n@pytest.mark.parametrize("path,want", CASES, ids=[c[0] for c in CASES])\ndef test_ext(path, want):\n    assert ext(path) == want\n\n\ndef test_none():\n    assert ext("Makefile") == ""\n'}
for p, s in FILES.items():
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, 'w').write(s)
