import os
os.makedirs(os.path.dirname('a23lib/stats.py') or '.', exist_ok=True)
open('a23lib/stats.py', 'w').write('"""Small statistics."""\n\n\ndef median(values):\n    """The middle value; the mean of the two middle values for an even count."""\n    xs = sorted(values)\n    if not xs:\n        raise ValueError("median of nothing")\n    mid = len(xs) // 2\n    if len(xs) % 2:\n        return xs[mid]\n    return (xs[mid - 1] + xs[mid]) / 2\n')
os.makedirs(os.path.dirname('tests/test_stats.py') or '.', exist_ok=True)
open('tests/test_stats.py', 'w').write('import unittest\n\nfrom a23lib.stats import median\n\n\nclass MedianTest(unittest.TestCase):\n    def test_even(self):\n        self.assertEqual(median([4, 1, 3, 2]), 2.5)\n\n    def test_even_two(self):\n        self.assertEqual(median([10, 20]), 15)\n\n    def test_odd(self):\n        self.assertEqual(median([3, 1, 2]), 2)\n\n    def test_empty(self):\n        with self.assertRaises(ValueError):\n            median([])\n')
