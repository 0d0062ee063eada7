FILES = {'a23lib/par.py': '"""Apply a CPU-heavy function to many inputs."""\nfrom concurrent.futures import ProcessPoolExecutor\n\n\ndef _square(x):\n    return x * x\n\n\ndef squares(xs, workers=2):\n    """Squares of xs, in order, computed in worker processes."""\n    with ProcessPoolExecutor(max_workers=workers) as pool:\n        return list(pool.map(_square, xs))\n', 'tests/test_fp25procpool.py': 'from a23lib.par import squares\n\n\ndef test_squares():\n    assert squares([1, 2, 3, 4]) == [1, 4, 9, 16]\n'}
BUG = [('a23lib/par.py', '        return list(pool.map(_square, xs))', '        return sorted(pool.map(_square, xs), reverse=True)')]
F2P = ['tests/test_fp25procpool.py::test_squares']
P2P = []
