import os
os.makedirs(os.path.dirname('a23lib/varint.py') or '.', exist_ok=True)
open('a23lib/varint.py', 'w').write('"""LEB128 variable-length unsigned integers."""\n\n\ndef encode(n):\n    out = bytearray()\n    while True:\n        byte = n & 0x7F\n        n >>= 7\n        if n:\n            out.append(byte | 0x80)\n        else:\n            out.append(byte)\n            return bytes(out)\n')
os.makedirs(os.path.dirname('tests/test_varint.py') or '.', exist_ok=True)
open('tests/test_varint.py', 'w').write('import pytest\n\nfrom a23lib.varint import encode\n\nCASES = [\n    (0, b"\\x00"),\n    (1, b"\\x01"),\n    (127, b"\\x7f"),\n    (128, b"\\x80\\x01"),\n    (300, b"\\xac\\x02"),\n    (16384, b"\\x80\\x80\\x01"),\n]\n\n\n@pytest.mark.parametrize("n,data", CASES)\ndef test_encode(n, data):\n    assert encode(n) == data\n')
