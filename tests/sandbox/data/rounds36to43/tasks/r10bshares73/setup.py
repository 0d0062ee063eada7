import os
os.makedirs(os.path.dirname('a23lib/shares.py') or '.', exist_ok=True)
open('a23lib/shares.py', 'w').write('"""Splitting a whole into weighted shares."""\nfrom fractions import Fraction\n\n\nclass Share(Fraction):\n    """One party\'s part of a whole."""\n\n    def __repr__(self):\n        return f"Share({self.numerator}/{self.denominator})"\n\n\ndef split(weights):\n    """Exact shares proportional to the weights; they add up to 1."""\n    total = sum(weights)\n    return [Share(w, total) for w in weights]\n')
os.makedirs(os.path.dirname('tests/test_shares.py') or '.', exist_ok=True)
open('tests/test_shares.py', 'w').write('import pytest\n\nfrom a23lib.shares import split\n\n\ndef test_sum_to_one():\n    assert sum(split([1, 1, 2])) == 1\n\n\ndef test_first_share():\n    shares = split([2, 1, 1])\n    assert shares[0] > shares[1] == shares[2]\n\n\ndef test_count():\n    assert len(split([5, 5])) == 2\n')
