import os
os.makedirs(os.path.dirname('a23lib/spread.py') or '.', exist_ok=True)
open('a23lib/spread.py', 'w').write('"""Measures of spread."""\nimport math\n\n\ndef variance(xs):\n    """Sample variance (n - 1 in the denominator)."""\n    xs = list(xs)\n    m = sum(xs) / len(xs)\n    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)\n\n\ndef stdev(xs):\n    """Sample standard deviation."""\n    xs = list(xs)\n    m = sum(xs) / len(xs)\n    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))\n')
os.makedirs(os.path.dirname('tests/test_spread.py') or '.', exist_ok=True)
open('tests/test_spread.py', 'w').write('import pytest\n\nfrom a23lib.spread import stdev, variance\n\nSAMPLES = [[1, 2, 3, 4], [2.5, 3.5, 9.0], [10, 10, 12]]\n\n\n@pytest.mark.parametrize("xs", SAMPLES)\ndef test_variance_matches_stdev(xs):\n    assert variance(xs) == pytest.approx(stdev(xs) ** 2)\n\n\ndef test_stdev_known():\n    assert stdev([5, 5, 5]) == 0\n')
