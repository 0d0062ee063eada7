import os
os.makedirs(os.path.dirname('a23lib/chunks.py') or '.', exist_ok=True)
open('a23lib/chunks.py', 'w').write('"""Splitting sequences."""\n\n\ndef chunks(seq, size):\n    """Consecutive pieces of seq of `size` items; the last may be shorter."""\n    if size < 1:\n        raise ValueError("size must be positive")\n    for i in range(0, len(seq), size):\n        yield seq[i:i + size]\n')
os.makedirs(os.path.dirname('tests/test_chunks.py') or '.', exist_ok=True)
open('tests/test_chunks.py', 'w').write('import pytest\n\nfrom a23lib.chunks import chunks\n\n\n@pytest.mark.parametrize("seq,size,expected", [\n    ([1, 2, 3, 4, 5], 2, [[1, 2], [3, 4], [5]]),\n    ("abcdefg", 3, ["abc", "def", "g"]),\n    ([1, 2, 3, 4], 2, [[1, 2], [3, 4]]),\n], ids=["list", "text", "even"])\ndef test_chunks(seq, size, expected):\n    assert list(chunks(seq, size)) == expected\n\n\ndef test_bad_size():\n    with pytest.raises(ValueError):\n        list(chunks([1], 0))\n')
