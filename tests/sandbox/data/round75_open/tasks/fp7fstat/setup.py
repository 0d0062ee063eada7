import os
os.makedirs(os.path.dirname('a23lib/sizes.py') or '.', exist_ok=True)
open('a23lib/sizes.py', 'w').write('"""Sizes of open files."""\nimport os\n\n\ndef open_size(f):\n    """Size in bytes of the file open as `f`, wherever its position is."""\n    return os.fstat(f.fileno()).st_size\n')
os.makedirs(os.path.dirname('tests/test_sizes.py') or '.', exist_ok=True)
open('tests/test_sizes.py', 'w').write('from a23lib.sizes import open_size\n\n\ndef test_size_after_partial_read(tmp_path):\n    p = tmp_path / "d.bin"\n    p.write_bytes(b"x" * 50)\n    with open(p, "rb") as f:\n        f.read(10)\n        assert open_size(f) == 50\n')
