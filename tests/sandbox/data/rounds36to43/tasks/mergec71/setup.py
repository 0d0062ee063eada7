open("a23lib/counts.py", "w").write('''"""Counting helpers."""


def merge_counts(a, b):
    """A new mapping: each key of a or b with the sum of its counts in both."""
    out = dict(a)
    for key, n in b.items():
        out[key] = out.get(key, 0) + n
    return out
''')
open("tests/test_counts.py", "w").write('''import unittest

from a23lib.counts import merge_counts


class MergeCountsTest(unittest.TestCase):
    def setUp(self):
        self.a = {"x": 1, "y": 2}
        self.b = {"y": 5, "z": 1}

    def test_sums_shared_keys(self):
        got = merge_counts(self.a, self.b)
        want = {k: self.a.get(k, 0) + self.b.get(k, 0) for k in self.a.keys() | self.b.keys()}
        self.assertEqual(got, want)

    def test_disjoint(self):
        self.assertEqual(merge_counts({"p": 1}, {"q": 2}), {"p": 1, "q": 2})
''')
