import os
os.makedirs(os.path.dirname('a23lib/msort.py') or '.', exist_ok=True)
open('a23lib/msort.py', 'w').write('"""Merge sort."""\n\n\ndef msort(items):\n    """A new list with the items in ascending order."""\n    items = list(items)\n    if len(items) <= 1:\n        return items\n    mid = len(items) // 2\n    left, right = msort(items[:mid]), msort(items[mid:])\n    out = []\n    while left and right:\n        out.append(left.pop(0) if left[0] <= right[0] else right.pop(0))\n    return out + left + right\n')
os.makedirs(os.path.dirname('tests/test_msort.py') or '.', exist_ok=True)
open('tests/test_msort.py', 'w').write('import random\n\nfrom a23lib.msort import msort\n\n\ndef test_random_lists():\n    for _ in range(20):\n        data = [random.randint(-50, 50) for _ in range(random.randint(0, 12))]\n        assert msort(data) == sorted(data)\n\n\ndef test_single():\n    assert msort([7]) == [7]\n')
