import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Opening logs, compressed or not."""\n\n\ndef read_log(path):\n    with open(path, encoding="utf-8") as f:\n        return f.read()\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import bz2\n\nfrom a23lib.m import read_log\n\n\ndef test_bz2(tmp_path):\n    p = tmp_path / "x.log.bz2"\n    p.write_bytes(bz2.compress(b"hello\\n"))\n    assert read_log(p) == "hello\\n"\n')
