import os
os.makedirs(os.path.dirname('a23lib/cat.py') or '.', exist_ok=True)
open('a23lib/cat.py', 'w').write('"""A tiny `cat` command."""\nimport sys\n\n\ndef cat(paths):\n    """Write each file\'s bytes to standard output, unchanged."""\n    for path in paths:\n        with open(path, "rb") as fh:\n            sys.stdout.buffer.write(fh.read())\n    sys.stdout.flush()\n')
os.makedirs(os.path.dirname('tests/test_cat.py') or '.', exist_ok=True)
open('tests/test_cat.py', 'w').write('from a23lib.cat import cat\n\n\ndef test_binary(tmp_path, capsysbinary):\n    p = tmp_path / "blob.bin"\n    p.write_bytes(b"\\x00\\xffabc\\n")\n    cat([p])\n    assert capsysbinary.readouterr().out == b"\\x00\\xffabc\\n"\n\n\ndef test_two(tmp_path, capsysbinary):\n    a, b = tmp_path / "a", tmp_path / "b"\n    a.write_bytes(b"one\\n")\n    b.write_bytes(b"two\\n")\n    cat([a, b])\n    assert capsysbinary.readouterr().out == b"one\\ntwo\\n"\n')
