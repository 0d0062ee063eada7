import os
os.makedirs(os.path.dirname('a23lib/avg.py') or '.', exist_ok=True)
open('a23lib/avg.py', 'w').write('"""Averages."""\n\n\ndef mean(xs):\n    """The arithmetic mean of a non-empty sequence."""\n    xs = list(xs)\n    return sum(xs) / len(xs)\n\n\ndef harmonic_mean(xs):\n    """The harmonic mean of positive numbers."""\n    xs = list(xs)\n    return len(xs) / sum(1 / x for x in xs)\n')
os.makedirs(os.path.dirname('tests/test_avg.py') or '.', exist_ok=True)
open('tests/test_avg.py', 'w').write('import statistics\n\nimport pytest\n\nfrom a23lib.avg import harmonic_mean, mean\n\nSAMPLES = [[1, 2, 3, 4], [2.5, 3.5, 9.0], [10, 10, 12], [7]]\n\n\n@pytest.mark.parametrize("xs", SAMPLES)\ndef test_mean_matches_stdlib(xs):\n    assert mean(xs) == pytest.approx(statistics.fmean(xs))\n\n\n@pytest.mark.parametrize("xs", SAMPLES)\ndef test_harmonic_matches_stdlib(xs):\n    assert harmonic_mean(xs) == pytest.approx(statistics.harmonic_mean(xs))\n')
