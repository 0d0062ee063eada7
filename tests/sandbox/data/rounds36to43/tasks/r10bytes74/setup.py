import os
os.makedirs(os.path.dirname('a23lib/frame.py') or '.', exist_ok=True)
open('a23lib/frame.py', 'w').write('"""Frames with an additive checksum."""\n\n\ndef checksum(data):\n    """Sum of all bytes mod 256."""\n    return sum(data) % 256\n\n\ndef frame(data):\n    return bytes(data) + bytes([checksum(data)])\n')
os.makedirs(os.path.dirname('tests/test_frame.py') or '.', exist_ok=True)
open('tests/test_frame.py', 'w').write('from a23lib.frame import checksum, frame\n\n\ndef test_checksum_matches_sum():\n    data = bytearray(b"hello, frame!")\n    assert checksum(data) == sum(data) % 256\n\n\ndef test_frame_tail():\n    data = bytearray(b"abc")\n    assert frame(data)[:3] == b"abc"\n')
