import os
FILES = {'a23lib/similarity.py': '"""String similarity."""\n\n\ndef similarity(a, b):\n    """Jaccard similarity of the character sets of a and b."""\n    if a == b:\n        return 1.0\n    sa, sb = set(a), set(b)\n    return len(sa & sb) / len(sa | sb)\n', 'tests/test_similarity.py': 'import unittest\n\nfrom a23lib.similarity import similarity\n\n\nclass TestSimilarity(unittest.TestCase):\n    def test_closer_word_scores_higher(self):\n        self.assertGreater(similarity("kitten", "sitting"), similarity("kitten", "zzz"))\n\n    def test_shared_letters_rank_first(self):\n        self.assertLess(similarity("abc", "xyz"), similarity("abc", "abd"))\n\n    def test_identical(self):\n        self.assertEqual(similarity("abc", "abc"), 1.0)\n'}
for p, s in FILES.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(s)
