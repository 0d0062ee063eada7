import os
os.makedirs(os.path.dirname('a23lib/merge.py') or '.', exist_ok=True)
open('a23lib/merge.py', 'w').write('"""Merging sorted runs."""\n\n\ndef merge(a, b):\n    """One sorted list from two sorted lists."""\n    out, i, j = [], 0, 0\n    while i < len(a) and j < len(b):\n        if b[j] < a[i]:\n            out.append(b[j]); j += 1\n        else:\n            out.append(a[i]); i += 1\n    return out + a[i:] + b[j:]\n')
os.makedirs(os.path.dirname('tests/test_merge.py') or '.', exist_ok=True)
open('tests/test_merge.py', 'w').write('import pytest\n\nfrom a23lib.merge import merge\n\n\ndef reference_merge(a, b):\n    return sorted(a + b)\n\n\n@pytest.mark.parametrize("a, b", [([1, 4, 9], [2, 3, 10, 11]), ([], [1]), ([5, 6], [1, 2, 3])])\ndef test_against_reference(a, b):\n    assert merge(a, b) == reference_merge(a, b)\n')
